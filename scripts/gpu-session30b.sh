#!/usr/bin/env bash
# Session 30 (~330 s): main's column-major fp32 D with beta = 0 in 4-row items (the staged
# columns; beta != 0 keeps the 8-row items), on a pack that also carries
# wip/cluster-fill-96-112.patch so scripts/gpu-session29c.sh runs next on the same machine.
#   1. Correct: every direct nvrtc_sm90 case, the gpu_matmul grid, the grid forced onto
#      Stream-K. Predicted: all pass (29a passed the staged columns with C; old2's fp32 and
#      tf32 sample checks passed without).
#   2. Timing against main before the change (old), deepgemm alone: fp32 D staged-27d and
#      staged-28b twice, beta = 1 staged-27d, tf32-28d, random-21d once; fp32 D against
#      cuBLASLt. Predicted: as 30a's old2: beta 0 ~0.95 of old's time, beta 1 1.00 (the same
#      code), tf32 ~0.97, random-21d ~0.98, against cuBLASLt ~0.87.
#     here:  git apply wip/cluster-fill-96-112.patch &&
#            CUBINS=all bash scripts/gpu-pack.sh && git checkout -- src tests kernels &&
#            CUBINS=_f32_,n112k,n96k,n128k,n144k bash scripts/gpu-pack-old.sh HEAD~2
#            (HEAD~2: main before the staged columns)
#     there: bash scripts/gpu-session30b.sh; then bash scripts/gpu-session29c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
precompile_all
precompile_old _f32_ &
direct || { wait; finish; exit 1; }
wait
grid grid 200 || { finish; exit 1; }
DEEPGEMM_DECOMPOSITION=streamk grid grid-streamk 150
F32="--out fp32 --no-cublas --check none --shapes $S/staged-27d.txt --shapes $S/staged-28b.txt"
alternate 2 $F32
bench beta-new-1 --beta 1 --out fp32 --no-cublas --check none --shapes $S/staged-27d.txt
bench_old beta-old-1 --beta 1 --out fp32 --no-cublas --check none --shapes $S/staged-27d.txt
bench tf32-new-1 --dtype tf32 --no-cublas --check none --shapes $S/tf32-28d.txt
bench_old tf32-old-1 --dtype tf32 --no-cublas --check none --shapes $S/tf32-28d.txt
bench random-new-1 --out fp32 --no-cublas --check none --shapes $S/random-21d.txt
bench_old random-old-1 --out fp32 --no-cublas --check none --shapes $S/random-21d.txt
bench vs-cublas-fp32 --out fp32 --check sample --shapes $S/staged-27d.txt
finish
