#!/usr/bin/env bash
# Prepared in session 23, not yet run (~150 s): wip/narrow-split-max-iters.patch (tiles up to 64
# wide split over 3+ CTAs each are charged the split-K fixup across tiles only up to 32
# iterations a CTA) against main, on the 28 shape-layouts it moves over every kept shape set
# (scripts/shapes/moved-24b-*: plan-diff against db1c1da), alternating twice, deepgemm alone.
#   Predicted: 0.93-0.97 of main's time; 416x568x8000 ~10% faster in every layout (`23a`: 128x96
#   sk24x120 21.2 us against 128x64 sk36x108 23.6 TN), none slower than 1.05.
#     here:  git apply wip/narrow-split-max-iters.patch && bash scripts/gpu-pack.sh && git checkout src
#            && bash scripts/gpu-pack-old.sh HEAD
#     there: bash scripts/gpu-session24b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
precompile_old
alternate_moved 2 moved-24b --check sample
finish
