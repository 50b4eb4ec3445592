#!/usr/bin/env bash
# Prepared in session 19, not yet run: wip/even-split-fixup.patch. The model charges the
# split-K fixup (not the Stream-K one) to every even split (CTAs a multiple of the split tiles),
# also where k's iterations do not divide evenly among a tile's CTAs (`ranges_within_tiles`
# false), which made 179 iterations in 3 cost ~2x the fixup of 180 in 3. 496x1000x11400: 128x128
# clusters sk16x48 modelled 51.6 us (a 24 us fixup), measured 39.2 (`19e`); the patch models it
# at 35.7 and plans it (main: 128x64 split-K pairs, 50.3).
#   Offline (scripts/sweep-regret.py, fastest of every plan timed): under-wave 1.034 -> 1.032,
#   random-k8 TN 1.034 -> 1.031, NN 1.021 -> 1.018, TT 1.024 -> 1.025; many of the moved plans
#   were never timed, hence this run: every shape-layout it moves (scripts/shapes/moved-20a.txt,
#   69 of them over random-k8, under-wave, small-m and small-n), against main.
#   Predicted: 496x1000x11400 ~40 us (0.8 of main's); the set geomean 0.95-1.0; the small-m
#   ones within +-3%.
#     here:  git apply wip/even-split-fixup.patch && bash scripts/gpu-pack.sh &&
#            git checkout src/plan/streamk.rs && bash scripts/gpu-pack-old.sh HEAD
#     there: bash scripts/gpu-session20a.sh (.gpu carried, ~400 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
precompile_old
alternate_layouts 2 "TN NN TT NT" --check sample --shapes .gpu/shapes/moved-20a.txt
finish
