#!/usr/bin/env bash
# Prepared in session 27, not yet run (~450 s): the timing of wip/f32-tma-store.patch against
# main (.gpu/old), after `28d` passed. The same plans (a kernel change only).
#   1. fp32 D (bf16 in), both builds alternating twice, deepgemm alone: staged-27d (one-wave
#      short-k launches), staged-28b; random-21d once.
#   2. tf32 (fp32 in and out), alternating twice: scripts/shapes/tf32-28d.txt.
#   3. The patched build against cuBLASLt: fp32 D on staged-27d, tf32 on tf32-28d.
#   Predicted: a one-wave launch still writes its whole fp32 D at once at the end (1568x2416:
#   15 MB, ~5 us of HBM at ~3 TB/s, the bf16 D half of it), so staged-27d only loses the
#   staged epilogue's own cost: ~0.85-0.90 of main's time (1568x2416x800 on 128x248 21.7 ->
#   ~19 us; cuBLASLt 16.9); staged-28b and random-21d (tiles after tiles: the stores drain
#   under the next tile's mainloop) 0.90-0.95; tf32 0.95-0.99 (4096³ and 8192³ are mainloop-
#   bound); fp32 D against cuBLASLt on staged-27d 0.779 -> ~0.88.
# The build: as `28d`'s.
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
# Both builds' fp32-out kernels first (a warm machine after 28d has the new ones cached).
"$B" --precompile _f32_ >/dev/null &
precompile_old _f32_ &
wait; echo "precompiled ${SECONDS}s"
alternate 2 --out fp32 --no-cublas --check none --shapes $S/staged-27d.txt --shapes $S/staged-28b.txt
for r in 1; do
    bench "random-new-$r" --out fp32 --no-cublas --check none --shapes $S/random-21d.txt
    bench_old "random-old-$r" --out fp32 --no-cublas --check none --shapes $S/random-21d.txt
done
for r in 1 2; do
    bench "tf32-new-$r" --dtype tf32 --no-cublas --check none --shapes $S/tf32-28d.txt
    bench_old "tf32-old-$r" --dtype tf32 --no-cublas --check none --shapes $S/tf32-28d.txt
done
bench vs-cublas-fp32 --out fp32 --check sample --shapes $S/staged-27d.txt
bench vs-cublas-tf32 --dtype tf32 --check sample --shapes $S/tf32-28d.txt
finish
