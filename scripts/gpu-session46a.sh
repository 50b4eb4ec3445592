#!/usr/bin/env bash
# Owed by session 45 (~8 min; then 46b, ~4 min, the same pack). First the gpu_matmul grid under
# the default planner since 03c64ae (the narrow tiles 128-deep: 45c's grid was in its lost half).
# Then 128x64 with 128-deep stages by default (DEEPGEMM_DEEP_MAX_N=64) against the default
# (32), the same build alternating, on every shape-layout of the kept sets it moves
# (scripts/shapes/moved-46-*.txt, 317; `plan-diff.sh` of the bench with and without the
# variable). Predicted from `45b`'s sweeps (128x64 0.97-0.99 of the 64-deep time, across
# calls): 0.97-0.99; merge (DEEP_MAX_N = 64) only if every layout is under 1.0.
#     here: CUBINS=n16k128,n32k128,n64k128,$(for l in tn nn tt nt; do bash scripts/plan-kernels.sh \
#               target/release/deepgemm-bench ${l^^} scripts/shapes/moved-46-$l.txt; done | paste -sd,) \
#           bash scripts/gpu-pack.sh
#     there: timeout 560 bash scripts/gpu-session46a.sh; . scripts/gpu-env.sh; finish
# (Run under a timeout with `finish` after it: a call past the device's 10 minutes brings back
# only ~8 loose files, session 45's 45c.)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
grid grid-default 240
round() {
    local r=$1 l ll
    for l in TN NN TT NT; do
        ll=$(echo "$l" | tr A-Z a-z)
        DEEPGEMM_DEEP_MAX_N=64 bench "${l}_deep64-$r" --layout "$l" --shapes ".gpu/shapes/moved-46-$ll.txt" --check none
        bench "${l}_main-$r" --layout "$l" --shapes ".gpu/shapes/moved-46-$ll.txt" --check none
    done
}
round 1
