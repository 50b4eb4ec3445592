#!/usr/bin/env bash
# Prepared in session 63 (no device time left to run it; ~6 min): DEEPGEMM_PACK_OVERLAP=1, a
# call's copies after its first (B's after A's, C's into D's buffer) waiting for the copy
# before only at their end (kernels/pack/pack.cuh `overlap`), so a call's two copies run
# together. 1. Correct: gpu_pack (every packing case: odd leading dimensions, misaligned
# bases, views, batch strides, slabs) and gpu_matmul's back-to-back dependent calls (chains
# and graph replays, which catch a missing wait) under the flag. 2. Faster: the flag against
# the default, same build, alternating, two rounds, on small problems that pack both operands
# (odd k in TN) and the cliffs 4095³ / 4097³ / 4100³. Predicted: small ones ~1-2 us less
# (0.85-0.95 of the time: one copy's latency and drain), the cubes ~0.99 (DRAM-bound copies).
# Make it the default (gemm::pack_overlap) only if every case passes and the small ones gain.
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 590 bash scripts/gpu-session64a.sh
# Score:  python3 scripts/compare-runs.py DIR 'on-*' 'off-*'
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
T=.gpu/tests
nvidia-smi -L
precompile_all
DEEPGEMM_PACK_OVERLAP=1 timeout 200 $T/gpu_pack --ignored --test-threads=1 --nocapture >"$OUT/pack-overlap.txt" 2>&1
echo "gpu_pack overlap rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/pack-overlap.txt")"
grep -E "^group .*passed" "$OUT/pack-overlap.txt" | tr '\n' ';'; echo
grep -m5 -E "FAIL|panicked" "$OUT/pack-overlap.txt"
DEEPGEMM_PACK_OVERLAP=1 timeout 60 $T/gpu_matmul --ignored --test-threads=1 --nocapture --exact \
    back_to_back_dependent_calls >"$OUT/chain-overlap.txt" 2>&1
echo "back to back overlap rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/chain-overlap.txt")"
grep -m5 -E "^group|FAIL|panicked" "$OUT/chain-overlap.txt"
S=.gpu/shapes/packed-small-63.txt
for r in 1 2; do
    bench off-$r --layout TN --shapes $S --workspace-mib 160
    DEEPGEMM_PACK_OVERLAP=1 bench on-$r --layout TN --shapes $S --workspace-mib 160
done
finish
