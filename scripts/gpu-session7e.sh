#!/usr/bin/env bash
# Fifth GPU call of session 7: the refitted split-K fixup cost (plans change on the small-M and
# small-N sets and 127x4095x4096 only; kernels SASS-identical to 7c's). The small-M, small-N and
# tiny shapes against cuBLASLt, the cliff set with room for the packed copies, the seven decode
# shapes swept, and the gpu_matmul grid with the new plans.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session7e.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
bench small-m --shapes .gpu/shapes/small-m.txt
bench small-n --shapes .gpu/shapes/small-n.txt
bench tiny --shape 1x64x64 --shape 64x64x64 --shape 128x128x128 --shape 256x256x256
bench cliffs --shapes .gpu/shapes/cliffs.txt --workspace-mib 160
S="--shape 127x4095x4096 --shape 128x4096x4096 --shape 64x4096x4096 --shape 64x2112x7168 --shape 128x2112x7168 --shape 16x4096x4096 --shape 1x2112x7168"
timeout 70 $B --sweep $S >"$OUT/sweep-auto.txt" 2>&1
echo "sweep rc=$? ${SECONDS}s"
grep -E "^\[|sweep #[0-3] " "$OUT/sweep-auto.txt" | sed -e 's/(vs the timed.*//' -e 's/deepgemm first call.*heuristic [0-9.]* ms, //' -e 's/dg_sm90_bf16_bf16_tn_//' -e 's/TN bf16->bf16 default: //' -e 's/); check.*//' | cut -c1-100
timeout 120 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
(cd "$OUT" && tar czf matmul.tgz matmul.txt && rm -f matmul.txt)
