#!/usr/bin/env bash
# Session 37, call g (~3 min on an H200; 37a's kernels carried as .gpu/cubins.txz, the old
# build reading the same cache: planner change only): NT's unclustered factor 1.15 -> 1.04 on
# tiles 128+ wide (streamk.rs MN_MN_UNCLUSTERED_FACTOR) against the commit before (.gpu/old),
# alternating twice, cuBLASLt in every run, on the 14 NT shapes of the kept sets it moves
# (moved-37-mnmn-nt). Predicted ~0.97 (the sweeps: 3624x2688x9944 355 -> ~290 us).
#     here: bash scripts/gpu-pack.sh; bash scripts/gpu-pack-old.sh HEAD~2 old
#     there: bash scripts/gpu-session37g.sh
set -uo pipefail
OLD_CACHE=/tmp/deepgemm-session-cache
. "$(dirname "$0")/gpu-env.sh"
LAYOUTS=NT alternate_moved 2 moved-37-mnmn
finish
