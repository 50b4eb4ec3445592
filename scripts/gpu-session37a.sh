#!/usr/bin/env bash
# Session 37, call a (~9.5 min, fresh machine): the cost model audited against main's current
# kernels (the kept sweeps in scripts/sweeps are from sessions 18-25, before the edge tiles,
# the ring epilogues' spread and the row-major boxes). Every heuristic candidate timed
# (--sweep, cuBLASLt in the same run) on:
#   1. random-21d TN (120 random shapes: the broadest general set, 0.883x cuBLASLt in `30a`,
#      never swept);
#   2. moved-35-biascol-tt (54 TT shapes the model plans as NN transposed; session 36 timed
#      three of them 1.09-1.17x slower than the direct TT plan).
# The kernels compiled here come back as $OUT/devcache.txz for the next calls (the planner
# changes that follow leave every kernel's source as it is).
#     here: bash scripts/gpu-pack.sh        there: bash scripts/gpu-session37a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
save_kernels
sweep random-21d-tn 290 --layout TN --shapes .gpu/shapes/random-21d.txt
sweep moved-35-tt 130 --layout TT --shapes .gpu/shapes/moved-35-biascol-tt.txt
finish
