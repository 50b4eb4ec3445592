#!/usr/bin/env bash
# Session 37, call f (~4.5 min on an H200; 37a's kernels carried as .gpu/cubins.txz, every old
# build reading the same cache: planner changes only):
#   1. NN's 3 us cluster start (streamk.rs CLUSTER_NN_START_S) against the commit before
#      (.gpu/old), alternating twice, on the 12 shape-layouts of the kept sets it moves
#      (moved-37-nn-{nn,tt}). Predicted ~0.95 of the time (the sweeps' NN moves 0.82-1.10).
#   2. random-21d NT, the session's end against its start (9fe3663, .gpu/old2), one round
#      each, cuBLASLt in both runs: what the three changes do to a general wgrad set.
#     here: bash scripts/gpu-pack.sh; bash scripts/gpu-pack-old.sh HEAD~2 old;
#           bash scripts/gpu-pack-old.sh 9fe3663 old2
#     there: bash scripts/gpu-session37f.sh
set -uo pipefail
OLD_CACHE=/tmp/deepgemm-session-cache
. "$(dirname "$0")/gpu-env.sh"
LAYOUTS="NN TT" alternate_moved 2 moved-37-nn
bench nt21-new --layout NT --shapes .gpu/shapes/random-21d.txt
OLD_B=.gpu/old2/deepgemm-bench bench_old nt21-start --layout NT --shapes .gpu/shapes/random-21d.txt
finish
