#!/usr/bin/env bash
# Session 34, call b (~6 min): main before (4514764, `old`) and after, alternating twice, on
#   - the 52 shape-layouts whose first plan moved (scripts/shapes/moved-34a-{tn,tt}.txt: TT
#     shapes computed as NN transposed, now on fill widths with a row-major D),
#   - decode shapes with a bias on 64-wide swapped tiles (bias-col-34a: the bias along n now
#     through the TMA-store epilogue),
#   - set A TN as the control (every launch's epilogue has the new run-time branch).
# Predicted: moved TT shapes 3-8% faster (the model's estimates: 0.90-0.97 of the old plan's),
# bias-col 0-3% faster, set A within 1%.
#     here:  CUBINS=all bash scripts/gpu-pack.sh; CUBINS=... bash scripts/gpu-pack-old.sh 4514764
#     there: bash scripts/gpu-session34b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_old "${OLD_NAMES:-all}"
alternate 2 --layout TT --shapes .gpu/shapes/moved-34a-tt.txt
finish
alternate 2 --layout TN --shapes .gpu/shapes/moved-34a-tn.txt
alternate 2 --epilogue bias --shapes .gpu/shapes/bias-col-34a.txt
finish
alternate 1 --shapes .gpu/shapes/set-a.txt
finish
