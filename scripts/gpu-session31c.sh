#!/usr/bin/env bash
# Session 31 (~330 s, kernels carried): main with both of the session's epilogue changes
# (`630e2d2` the staged rounds' C loaded ahead, GPU-run alone in 31a; `edaa3f2`-`4f3b189` C
# through TMA, GPU-run alone in 31b), run together for the first time.
#   1. Correct: every direct nvrtc_sm90 case, the gpu_matmul grid, forced onto Stream-K (a
#      launch's data-parallel tiles load C by TMA while its Stream-K owners take the staged
#      rounds with C ahead). Predicted: all pass.
#   2. Against cuBLASLt, beta = 1: bf16 D staged-27d (31b: 1.061) and random-21d (0.841), fp16
#      D staged-27d, fp32 D staged-27d (31a: 0.822); beta = 0 random-21d (30a: 0.883) as the
#      control. Predicted: as in 31a / 31b within 2%.
#     here:  CUBINS=all bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session31c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
precompile_all
direct || { finish; exit 1; }
grid grid 200 || { finish; exit 1; }
DEEPGEMM_DECOMPOSITION=streamk grid grid-streamk 150
bench vs-cublas-beta-bf16 --beta 1 --check sample --shapes $S/staged-27d.txt
bench vs-cublas-beta-f16 --beta 1 --dtype fp16 --check sample --shapes $S/staged-27d.txt
bench vs-cublas-beta-f32 --beta 1 --out fp32 --check sample --shapes $S/staged-27d.txt
bench vs-cublas-random-beta --beta 1 --check sample --shapes $S/random-21d.txt
bench vs-cublas-random --check sample --shapes $S/random-21d.txt
finish
