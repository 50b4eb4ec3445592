#!/usr/bin/env bash
# Session 46, call b (~5 min, after 46a with the same pack): the second round of 46a's A/B
# (128x64 with 128-deep stages by default, DEEPGEMM_DEEP_MAX_N=64, against the default) and the
# bench's own check on every moved TN launch under the variable.
#     there: timeout 560 bash scripts/gpu-session46b.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
for l in TN NN TT NT; do
    ll=$(echo "$l" | tr A-Z a-z)
    DEEPGEMM_DEEP_MAX_N=64 bench "${l}_deep64-2" --layout "$l" --shapes ".gpu/shapes/moved-46-$ll.txt" --check none
    bench "${l}_main-2" --layout "$l" --shapes ".gpu/shapes/moved-46-$ll.txt" --check none
done
DEEPGEMM_DEEP_MAX_N=64 bench check-tn --layout TN --shapes .gpu/shapes/moved-46-tn.txt
