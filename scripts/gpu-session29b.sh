#!/usr/bin/env bash
# Session 29 (~300 s, after 29a on the same pack and machine): the timing of the fp32-D
# changes. new (.gpu): both patches; old (.gpu/old): main; old2 (.gpu/old2): the staged
# columns alone. deepgemm alone unless the name says vs-cublas; the same plans in all three.
#   1. fp32 D, beta = 0 (the TMA store in new; the staged columns in old2): staged-27d and
#      staged-28b, the three builds in turn, twice; random-21d once each.
#   2. fp32 D, beta = 1 (staged in every build: the staged columns against main's 8-row
#      items): staged-27d, new and old in turn, twice.
#   3. tf32 (fp32 in and out), new and old in turn, twice: tf32-28d.
#   4. Against cuBLASLt (new): fp32 D on staged-27d with beta 0 and 1, tf32 on tf32-28d,
#      bias + GELU and the plain GEMM at 4096x14336x4096 (issue 3; session 14: 0.97).
#   Predicted: (1) staged-27d new 0.80-0.88 of old's time, old2 0.85-0.92 (1568x2416x800 on
#   248: 21.7 us -> ~18 / ~19); staged-28b 0.90-0.95 (tiles after tiles: TMA stores drain
#   under the next mainloop); random-21d 0.93-0.97. (2) 0.85-0.92. (3) 0.95-0.99 (short k
#   ~0.9; 4096³, 8192³ mainloop-bound ~1.0). (4) fp32 D against cuBLASLt 0.779 (`28a`) ->
#   ~0.9; beta 1 ~0.85; bias + GELU 0.97-1.00.
# The pack: 29a's. (main's 82c0164 needs no timing of its own: its kernels are SASS-identical
# to c79e2d0's on widths that are multiples of 16 and to 2e2ad38's on the others, session 29.)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
bench_old2() { B=.gpu/old2/deepgemm-bench DEEPGEMM_CACHE_DIR=/tmp/deepgemm-old2-cache bench "$@"; }
# A fresh machine (29a ran elsewhere) compiles first; a warm one finds the caches.
"$B" --precompile _f32_ >/dev/null &
precompile_old _f32_ &
OLD_B=.gpu/old2/deepgemm-bench OLD_CACHE=/tmp/deepgemm-old2-cache precompile_old _f32_ &
wait; echo "precompiled ${SECONDS}s"
F32="--out fp32 --no-cublas --check none --shapes $S/staged-27d.txt --shapes $S/staged-28b.txt"
for r in 1 2; do
    bench new-$r $F32
    bench_old old-$r $F32
    bench_old2 old2-$r $F32
done
bench random-new-1 --out fp32 --no-cublas --check none --shapes $S/random-21d.txt
bench_old random-old-1 --out fp32 --no-cublas --check none --shapes $S/random-21d.txt
bench_old2 random-old2-1 --out fp32 --no-cublas --check none --shapes $S/random-21d.txt
for r in 1 2; do
    bench beta-new-$r --beta 1 --out fp32 --no-cublas --check none --shapes $S/staged-27d.txt
    bench_old beta-old-$r --beta 1 --out fp32 --no-cublas --check none --shapes $S/staged-27d.txt
done
for r in 1 2; do
    bench tf32-new-$r --dtype tf32 --no-cublas --check none --shapes $S/tf32-28d.txt
    bench_old tf32-old-$r --dtype tf32 --no-cublas --check none --shapes $S/tf32-28d.txt
done
bench vs-cublas-fp32 --out fp32 --check sample --shapes $S/staged-27d.txt
bench vs-cublas-fp32-beta1 --beta 1 --out fp32 --check sample --shapes $S/staged-27d.txt
bench vs-cublas-tf32 --dtype tf32 --check sample --shapes $S/tf32-28d.txt
bench vs-cublas-gelu-bias --epilogue gelu_bias --check sample --shape 4096x14336x4096
bench vs-cublas-plain --check sample --shape 4096x14336x4096
finish
