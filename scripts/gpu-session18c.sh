#!/usr/bin/env bash
# Session 18: the model refit to 18b's sweeps (mid-sector lines 3.1 requests under the 128-byte
# promotion; every even Stream-K split charged the split-K fixup, at any operand size) against
# the build before it (HEAD~N: the promotion rule, session 17's model), both on the same kernels.
#   Predicted (scripts/sweep-regret.py on 18b's sweeps: chosen/fastest 1.034 -> 1.020): random-k8
#   and under-wave 1-2% faster in geomean, the moved shapes 5-20% (632x2104x13544 92 -> ~79 us,
#   7944x640x8520 165 -> ~138, 496x1000x11400 59 -> ~49); the aligned small-M/N shapes moved
#   from split-K pairs to even 128x128 splits: not measured before, within +-5%.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh REV
#     there: bash scripts/gpu-session18c.sh (.gpu carried, ~350 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OLD_CACHE=$DEEPGEMM_CACHE_DIR  # the same kernels: one cache
precompile_all
S=.gpu/shapes
alternate 2 --no-cublas --check none --shapes $S/random-k8.txt
OUT0=$OUT
for f in under-wave moved-18c-tn; do
    OUT=$OUT0/$f; mkdir -p $OUT
    alternate 2 --no-cublas --check none --shapes $S/$f.txt
done
OUT=$OUT0/moved-18c-nn; mkdir -p $OUT
alternate 2 --no-cublas --check none --layout NN --shapes $S/moved-18c-nn.txt
OUT=$OUT0
for f in random-k8 under-wave moved-18c-tn; do
    bench $f-vs-cublas --check sample --shapes $S/$f.txt
done
bench nn-vs-cublas --check sample --layout NN --shapes $S/moved-18c-nn.txt
for f in random-k8 under-wave; do
    timeout 200 "$B" --sweep --no-cublas --check none --iters 20 --warmup 3 --shapes $S/$f.txt >"$OUT/sweep-$f.txt" 2>&1
    echo "== sweep $f rc=$? ${SECONDS}s"
done
# 64-row tiles (the ping-pong variants, m64n{128,192,256}: one consumer per tile when a CTA has
# one) on the under-wave shapes, where cuBLASLt runs 48-112 x 64-120 tiles in clusters of 2-8
# (18a): is a 64-row tile worth building out (narrower widths, planning)?
DEEPGEMM_PINGPONG=1 timeout 100 "$B" --sweep --no-cublas --check none --iters 20 --warmup 3 --shapes $S/under-wave.txt >"$OUT/sweep-pingpong.txt" 2>&1
echo "== sweep pingpong rc=$? ${SECONDS}s"
(cd $OUT && for d in under-wave moved-18c-tn moved-18c-nn; do for x in $d/*.txt; do mv $x ${d}_$(basename $x); done; rmdir $d; done)
finish
