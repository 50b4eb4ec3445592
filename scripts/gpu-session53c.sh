#!/usr/bin/env bash
# Prepared in session 53 (its GPU time spent), one call (~6 min; carry 53a's devcache as
# .gpu/cubins.txz or let precompile_all run first): DEEPGEMM_SWAP_PACKED=1, calls with A or B
# off the 16-byte grid planned transposed on packed copies (each half GPU-tested, never
# together).
#   1. gpu_pack with the switch (every group; the new `misaligned_decode_operands_are_packed`
#      then runs 12 of its 16 cases as `+swap+pack_*`) and without it (that group direct).
#      Predicted: all pass both ways.
#   2. Decode with misaligned activations / weights against cuBLASLt (MIN_ALIGNMENT announced
#      to both, `--offset`), with and without the switch, and the aligned calls. Predicted
#      (`--plans`): A off 1x4096x4096 ~15 us with the switch against ~27 without (aligned
#      ~12.5), 16x4096x4096 the same; B off ~42 against ~54 (the weight's copy dominates).
#      If 1 passes and 2 holds, turn the switch on by default (src/plan/mod.rs `swap_packed`).
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 590 bash scripts/gpu-session53c.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_SWAP_PACKED=1 timeout 170 .gpu/tests/gpu_pack --ignored --test-threads=1 >"$OUT/gpu_pack-swap.txt" 2>&1
echo "== gpu_pack swap rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/gpu_pack-swap.txt")"
grep -m5 -E "FAIL|panicked" "$OUT/gpu_pack-swap.txt"
timeout 60 .gpu/tests/gpu_pack --ignored --test-threads=1 misaligned_decode >"$OUT/gpu_pack-direct.txt" 2>&1
echo "== gpu_pack direct rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/gpu_pack-direct.txt")"
grep -m5 -E "FAIL|panicked" "$OUT/gpu_pack-direct.txt"
V="--check sample --iters 30 --warmup 5 --shape 1x4096x4096 --shape 16x4096x4096 --shape 64x14336x4096 --shape 16x14336x4096 --shape 128x4096x4096"
bench decode-aligned $V --offset 0,0
for o in 1,0 0,1; do
    DEEPGEMM_SWAP_PACKED=1 bench decode-swap-${o/,/-} $V --offset $o
    bench decode-direct-${o/,/-} $V --offset $o
done
finish
