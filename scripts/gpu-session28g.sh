#!/usr/bin/env bash
# Session 28 (~420 s): the staged epilogue's column-major fp32 D in 4-row items (kernels/sm90/
# epilogue.cuh `staged_columns_f32`): lanes 0-15 of a warp take one column's 64 rows, lanes
# 16-31 the next, so each store instruction writes four whole 128-byte lines; the 8-row items
# wrote every 32-byte sector in two halves from two instructions (twice the L2 write requests,
# which session 15 found pace this loop). 16-bit D is untouched (`if constexpr`).
#   1. Correct: every direct nvrtc_sm90 case, the gpu_matmul grid (fp32 D with ragged m,
#      beta, C aliasing D, bias, every activation, batches), then forced onto Stream-K.
#   2. fp32 D, this build against main (.gpu/old), alternating twice, deepgemm alone:
#      staged-27d, staged-28b; random-21d once; tf32 (fp32 out) on tf32-28d twice.
#   3. Against cuBLASLt: fp32 D on staged-27d, tf32 on tf32-28d; bias + GELU at
#      4096x14336x4096 (issue 3, last measured in session 14: 0.97) and the plain GEMM there.
#   Predicted: everything passes; staged-27d 0.85-0.92 of main's time (1568x2416x800 on 248
#   21.7 -> ~19 us), staged-28b 0.90-0.95, random-21d 0.95-0.98, tf32 0.97-1.00 (short k
#   ~0.9, 4096³ and 8192³ mainloop-bound ~1.0); fp32 D against cuBLASLt on staged-27d
#   0.779 (`28a`) -> ~0.85; bias + GELU 0.97-1.00.
# The build: main with the change uncommitted; old: main (82c0164).
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh HEAD
#     there: bash scripts/gpu-session28g.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
precompile_all &
precompile_old _f32_ &
wait
direct || { finish; exit 1; }
grid grid 150 || { finish; exit 1; }
DEEPGEMM_DECOMPOSITION=streamk grid grid-streamk 150 || { finish; exit 1; }
alternate 2 --out fp32 --no-cublas --check none --shapes $S/staged-27d.txt --shapes $S/staged-28b.txt
bench "random-new-1" --out fp32 --no-cublas --check none --shapes $S/random-21d.txt
bench_old "random-old-1" --out fp32 --no-cublas --check none --shapes $S/random-21d.txt
for r in 1 2; do
    bench "tf32-new-$r" --dtype tf32 --no-cublas --check none --shapes $S/tf32-28d.txt
    bench_old "tf32-old-$r" --dtype tf32 --no-cublas --check none --shapes $S/tf32-28d.txt
done
bench vs-cublas-fp32 --out fp32 --check sample --shapes $S/staged-27d.txt
bench vs-cublas-tf32 --dtype tf32 --check sample --shapes $S/tf32-28d.txt
bench vs-cublas-gelu-bias --epilogue gelu_bias --check sample --shape 4096x14336x4096
bench vs-cublas-plain --check sample --shape 4096x14336x4096
finish
