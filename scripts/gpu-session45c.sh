#!/usr/bin/env bash
# Session 45, call c (~7 min): the narrow tiles' 128-deep stages planned by default
# (`sm90::DEEP_MAX_N` = 32: 128x16 and 128x32 take their `k128` twins) against main before it
# (9b54df4, in .gpu/old), alternating twice on every shape-layout of the kept sets whose first
# plan it moves (scripts/shapes/moved-45-*.txt: decode and small-n mostly, 227). Predicted from
# `45b`'s sweeps (the same candidates across calls): 128x16 plans 0.91-0.95 of the time,
# 128x32 0.96; the handful moved to other tiles by the twins' estimates +-5%.
#     here: CUBINS=n16k128,n32k128,$(tr '\n' , </tmp/newk.txt) bash scripts/gpu-pack.sh
#           CUBINS=$(tr '\n' , </tmp/oldk.txt) bash scripts/gpu-pack-old.sh 9b54df4
#     there: bash scripts/gpu-session45c.sh
# As run in session 45 it passed the device's 10 minutes inside the grid, before `finish`:
# the loose logs came back but for TN / TT (45d ran those again). Run it under a timeout
# with `finish` after it (as 45d), or drop the grid.
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_SM90_VARIANTS=n16k128,n32k128 direct direct-narrow-deep 150 || { finish; exit 1; }
LAYOUTS="TN NN TT NT" alternate_moved 2 moved-45 --check none
# The bench's own check on every moved TN and NN launch (this build).
bench check-tn --layout TN --shapes .gpu/shapes/moved-45-tn.txt
bench check-nn --layout NN --shapes .gpu/shapes/moved-45-nn.txt
# The gpu_matmul grid under the default planner (narrow tiles now 128-deep where they plan).
grid grid-default 240
finish
