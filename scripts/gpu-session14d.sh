#!/usr/bin/env bash
# Session 14, main at the final kernels of session 13 (4a224e3): the issue-3 figures last
# measured in session 11 (fp16 set A, bias + GELU, tf32, the other layouts at 4096^3 and
# 8192^3) and the cliffs, against cuBLASLt in the same run.
# Predicted: fp16 set A ~0.99 (bf16's 0.995 in 14's 13h), fp16 1-8% below bf16 in both
# libraries as in 11b; bias + GELU 4096x14336x4096 ~0.98; tf32 8192^3 ~0.99; NN/TT/NT within
# 2% of TN; cliffs as 12g (4095^3 ~237 us, 1000x3000x4000 ~0.96).
#     here:  bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session14d.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
bench set-a-fp16 --shapes .gpu/shapes/set-a.txt --dtype fp16
bench gelu-bias --shape 4096x14336x4096 --epilogue gelu_bias
bench tf32 --shape 2048x2048x2048 --shape 4096x4096x4096 --shape 8192x8192x8192 --dtype tf32
for l in NN TT NT; do
    bench layout-$l --shape 4096x4096x4096 --shape 8192x8192x8192 --layout $l
done
bench cliffs --shapes .gpu/shapes/cliffs.txt
(cd "$OUT" && tar czf logs.tgz --remove-files *.txt)
