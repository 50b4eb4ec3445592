#!/usr/bin/env bash
# Session 40, call g (~6 min): wip/pingpong-narrow.patch against main. The patch puts the
# 64x128 ping-pong tile first where the model's first plan is 128x64, unclustered, unsplit and
# data-parallel in one wave, and 64x128 fits one wave with at most a quarter more tiles
# (`plan::pingpong_for_narrow`). In `40f`'s sweeps the 29 shape-layouts it moves there took
# 0.974 of the time (one timing each). Here every shape-layout of the kept sets it moves
# (scripts/shapes/moved-40-{tn,nt,nn,tt}.txt, 99), alternating twice against main, after the
# grid with the patch. Predicted: 0.97-0.98 of main's time over the moves, none above 1.05.
#     here: git apply wip/pingpong-narrow.patch;
#           CUBINS=m64n128k64_s8_c1x1,m128n64k64_s8_c1x1 bash scripts/gpu-pack.sh;
#           CUBINS=m64n128k64_s8_c1x1,m128n64k64_s8_c1x1 bash scripts/gpu-pack-old.sh main old
#     there: bash scripts/gpu-session40g.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
grid grid 150
for layout in TN NT NN TT; do
    l=$(tr 'A-Z' 'a-z' <<<"$layout")
    pair moved-$l 2 --layout $layout --shapes .gpu/shapes/moved-40-$l.txt --iters 20 --warmup 3
done
finish
