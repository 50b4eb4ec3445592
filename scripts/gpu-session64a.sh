#!/usr/bin/env bash
# Prepared in session 63 (no device time left to run it; ~9 min). Part 1, DEEPGEMM_PACK_OVERLAP=1, a
# call's copies after its first (B's after A's, C's into D's buffer) waiting for the copy
# before only at their end (kernels/pack/pack.cuh `overlap`), so a call's two copies run
# together. 1. Correct: gpu_pack (every packing case: odd leading dimensions, misaligned
# bases, views, batch strides, slabs) and gpu_matmul's back-to-back dependent calls (chains
# and graph replays, which catch a missing wait) under the flag. 2. Faster: the flag against
# the default, same build, alternating, two rounds, on small problems that pack both operands
# (odd k in TN) and the cliffs 4095³ / 4097³ / 4100³. Predicted: small ones ~1-2 us less
# (0.85-0.95 of the time: one copy's latency and drain), the cubes ~0.99 (DRAM-bound copies).
# Make it the default (gemm::pack_overlap) only if every case passes and the small ones gain.
# Part 2, DEEPGEMM_PACK_PITCH=first (plan::pitch_packed_plans first: operands whose lines start
# mid-sector copied to 128-byte lines first, the model's best such plan): correct (gpu_matmul's
# shapes x types x transposes, orders and padding, epilogues under it) and what it buys on the
# general set's k = 8 mod 16 shapes (TN 0.873x cuBLASLt, 63d) against the default, two rounds,
# with the k = 0 mod 16 controls (which it leaves as they are). Predicted: the shapes whose
# small operand is re-read by many tiles (5888x280x5640: B's 3.2 MB under 46 tile rows) 0.8-0.9
# of the time; those whose copy is of a large operand slower. Then fit the model's charge
# (plan::streamk LINE_REQUESTS_MID_SECTOR) so `=1` ranks them where they won, and score.
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 590 bash scripts/gpu-session64a.sh
# Score:  python3 scripts/compare-runs.py DIR 'on-*' 'off-*'; ... DIR 'pitch-*' 'def-*'
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
T=.gpu/tests
nvidia-smi -L
precompile_all
DEEPGEMM_PACK_OVERLAP=1 timeout 200 $T/gpu_pack --ignored --test-threads=1 --nocapture >"$OUT/pack-overlap.txt" 2>&1
echo "gpu_pack overlap rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/pack-overlap.txt")"
grep -E "^group .*passed" "$OUT/pack-overlap.txt" | tr '\n' ';'; echo
grep -m5 -E "FAIL|panicked" "$OUT/pack-overlap.txt"
DEEPGEMM_PACK_OVERLAP=1 matmul_groups overlap $((SECONDS + 60)) back_to_back_dependent_calls
S=.gpu/shapes/packed-small-63.txt
for r in 1 2; do
    bench off-$r --layout TN --shapes $S --workspace-mib 160
    DEEPGEMM_PACK_OVERLAP=1 bench on-$r --layout TN --shapes $S --workspace-mib 160
done
DEEPGEMM_PACK_PITCH=first matmul_groups pitch 400 shapes_types_transposes \
    orders_and_padding epilogues
K=.gpu/shapes/general-63-k8.txt
C=.gpu/shapes/general-63-k0ctl.txt
for r in 1 2; do
    [ $((540 - SECONDS)) -gt 40 ] || break
    bench def-$r --layout TN --shapes $K --shapes $C --check none --iters 30
    DEEPGEMM_PACK_PITCH=first bench pitch-$r --layout TN --shapes $K --shapes $C --check none --iters 30
done
finish
