#!/usr/bin/env bash
# Session 37, call c (~5 min on an H200; 37a's device-compiled kernels carried as
# .gpu/cubins.txz: the planner change leaves every kernel as it was, so the old build reads the
# same cache): the clusters of 2 x 2's cheaper start (streamk.rs CLUSTER_2X2_START_S,
# CLUSTER_2X2_MN_FACTOR) against the commit before it (.gpu/old), alternating twice, cuBLASLt
# in every run, on every shape-layout of the kept sets it moves (scripts/shapes/moved-37-c2x2-*:
# 7 TN, 3 NN, 31 TT, 43 NT). Predicted: ~0.97 of the time over the moves (the sweeps' 12 NT
# moves 0.975, TN/NN/TT 0.82-1.07 each).
#     here: bash scripts/gpu-pack.sh; bash scripts/gpu-pack-old.sh HEAD~2 old (the commit before the model change)
#     there: bash scripts/gpu-session37c.sh
set -uo pipefail
OLD_CACHE=/tmp/deepgemm-session-cache
. "$(dirname "$0")/gpu-env.sh"
alternate_moved 2 moved-37-c2x2
finish
