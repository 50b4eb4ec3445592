#!/usr/bin/env bash
# Session 46, call d (~8 min, 9 with pp): solo_for_short with the full-ring solo 64x64 (128-deep stages,
# the whole SM's ring, one CTA an SM: DEEPGEMM_SOLO_RING=full) and its bound at 64 k-iterations
# (DEEPGEMM_SOLO_MAX_K=64) against the default (the half-ring 64-deep 64x64 up to 20), the same
# build alternating, two rounds, on scripts/shapes/moved-46d-*.txt (89 shape-layouts a layout:
# solo_for_short's out-of-sample moves of session 41 and every kept-set shape either variable
# moves). Predicted from `46c`'s sweeps against session 41's (across calls): up to 20
# k-iterations 0.92-0.97 of the half ring's time; 21-64 (moved off 128x64 / 128x32 Stream-K
# plans) 0.95-1.0. The bench's own check on every TN launch under both variables. And, one
# round, pingpong_for_narrow with the full-ring solo 64x128 (128-deep) in place of the ping-pong
# 64x128 (DEEPGEMM_PINGPONG_RING=solo) on its out-of-sample moves (moved-41-*, 209 of 267 move):
# predicted 0.92-0.97 (46c: the full ring 64x128 0.56-0.81 of the half-ring solo's time; session
# 43: the 64-deep full ring 0.59-0.89 of it and 1.0-1.02 of ping-pong's).
#     here: CUBINS=$(for b in target/release/deepgemm-bench /tmp/w/full64 /tmp/w/ppsolo; do for l in tn nn tt nt; do \
#               bash scripts/plan-kernels.sh $b ${l^^} scripts/shapes/moved-46d-$l.txt scripts/shapes/moved-41-$l.txt; done; done | paste -sd,) \
#           bash scripts/gpu-pack.sh     (/tmp/w/full64, ppsolo: the bench under the variables)
#     there: timeout 560 bash scripts/gpu-session46d.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
round() {
    local r=$1 l ll
    for l in TN NN TT NT; do
        ll=$(echo "$l" | tr A-Z a-z)
        DEEPGEMM_SOLO_RING=full DEEPGEMM_SOLO_MAX_K=64 bench "${l}_full64-$r" --layout "$l" --shapes ".gpu/shapes/moved-46d-$ll.txt" --check none
        bench "${l}_main-$r" --layout "$l" --shapes ".gpu/shapes/moved-46d-$ll.txt" --check none
    done
}
round 1
DEEPGEMM_SOLO_RING=full DEEPGEMM_SOLO_MAX_K=64 bench check-tn --layout TN --shapes .gpu/shapes/moved-46d-tn.txt
for l in TN NN TT NT; do
    ll=$(echo "$l" | tr A-Z a-z)
    chk=none
    [ "$l" = TN ] && chk=sample
    DEEPGEMM_PINGPONG_RING=solo bench "${l}_ppsolo-1" --layout "$l" --shapes ".gpu/shapes/moved-41-$ll.txt" --check $chk
    bench "${l}_ppmain-1" --layout "$l" --shapes ".gpu/shapes/moved-41-$ll.txt" --check none
done
round 2
