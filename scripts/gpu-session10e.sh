#!/usr/bin/env bash
# Fifth GPU script of session 10, on main (the epi-wait epilogue merged): the issue-3 figures
# that were last measured on session 5's kernels (fp16, tf32, bias + GELU, the other layouts)
# and set A, against cuBLASLt in the same run, so that BENCHMARKS.md matches the code; then
# the small-M set (its 64-wide and wider tiles take the TMA-store epilogue that changed).
# Predicted: set A geomean ~0.99; fp16 within 2% of bf16 shape by shape; tf32 8192^3 ~1.0x;
# bias + GELU 4096x14336x4096 ~0.97-0.98x; small-M geomean ~0.97.
#     here:  bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session10e.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
bench set-a --shapes .gpu/shapes/set-a.txt
bench set-a-fp16 --shapes .gpu/shapes/set-a.txt --dtype fp16
bench gelu-bias --shape 4096x14336x4096 --epilogue gelu_bias
bench tf32 --shape 2048x2048x2048 --shape 4096x4096x4096 --shape 8192x8192x8192 --dtype tf32
for l in NN TT NT; do
    bench layout-$l --shape 4096x4096x4096 --shape 8192x8192x8192 --layout $l
done
bench small-m --shapes .gpu/shapes/small-m.txt
