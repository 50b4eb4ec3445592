#!/usr/bin/env bash
# Session 37, call e (~3 min on an H200; 37a's kernels carried as .gpu/cubins.txz, the old
# build reading the same cache: planner changes only): NT's A charged by its pitch
# (streamk.rs l2_request_s) against the commit before it (.gpu/old), alternating twice,
# cuBLASLt in every run, on the 28 NT shapes of the kept sets it moves
# (scripts/shapes/moved-37-ntpitch-nt.txt). Predicted ~0.97 of the time (the sweeps' moves:
# random-21d NT 15 at ~0.96, random-k8 NT 13 at ~0.95, of which 10 are the 2 x 2 start's).
#     here: bash scripts/gpu-pack.sh; bash scripts/gpu-pack-old.sh HEAD~2 old
#     there: bash scripts/gpu-session37e.sh
set -uo pipefail
OLD_CACHE=/tmp/deepgemm-session-cache
. "$(dirname "$0")/gpu-env.sh"
LAYOUTS=NT alternate_moved 2 moved-37-ntpitch
finish
