#!/usr/bin/env bash
# Session 46, call f (~1.5 min, 46d's pack: build a0f6a59, whose default is session 41's rule):
# out of sample, solo_for_short on the full-ring 64x64 up to 64 k-iterations (as merged in
# 476e97b; here DEEPGEMM_SOLO_RING=full DEEPGEMM_SOLO_MAX_K=64) against session 41's (the
# half-ring 64-deep tile up to 20), one round alternating, on a fresh random set every shape of
# which it moves (scripts/shapes/moved-46f-*.txt, 80 a layout: 50 at 21-64 k-iterations, 30 at
# up to 20). Predicted from 46d: 0.93-0.97 of the time by layout. Then the bench's check on
# every TN launch under the variables.
#     there: timeout 300 bash scripts/gpu-session46f.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
for l in TN NN TT NT; do
    ll=$(echo "$l" | tr A-Z a-z)
    DEEPGEMM_SOLO_RING=full DEEPGEMM_SOLO_MAX_K=64 bench "${l}_new-1" --layout "$l" --shapes ".gpu/shapes/moved-46f-$ll.txt" --check none
    bench "${l}_old-1" --layout "$l" --shapes ".gpu/shapes/moved-46f-$ll.txt" --check none
done
DEEPGEMM_SOLO_RING=full DEEPGEMM_SOLO_MAX_K=64 bench check-tn --layout TN --shapes .gpu/shapes/moved-46f-tn.txt
