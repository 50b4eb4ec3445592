#!/usr/bin/env bash
# Session 43, call e (~4 min): the solo 64x128 tile with the whole SM's ring (8 stages, one CTA
# an SM) against the ping-pong 64x128 that `plan::pingpong_for_narrow` plans on one-wave 128x64
# shapes, on that rule's out-of-sample moves (`scripts/shapes/moved-41-*`, 267 shape-layouts),
# both timed by the bench (the sweep runs ~5% faster than the bench for the same kernel, `43d`),
# the solo one forced by DEEPGEMM_SOLO=1 with DEEPGEMM_VARIANT naming it. One round a layout.
# Predicted 0.97-1.00 of ping-pong's time: with one tile a CTA the two kernels differ only in
# the idle second consumer.
#     there: bash scripts/gpu-session43e.sh  (43d's pack)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
for l in tn nt nn tt; do
    L=$(tr a-z A-Z <<<"$l")
    bench "m41-$l-pp" --layout "$L" --shapes .gpu/shapes/moved-41-$l.txt --iters 20 --warmup 3 --check none
    DEEPGEMM_SOLO=1 DEEPGEMM_VARIANT=m64n128k64_s8_c1x1_w1,m64n128k64_s9_c1x1_w1 \
        bench "m41-$l-solofull" --layout "$L" --shapes .gpu/shapes/moved-41-$l.txt --iters 20 --warmup 3
done
finish
