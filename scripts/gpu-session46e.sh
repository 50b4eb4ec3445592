#!/usr/bin/env bash
# Session 46, call e (~4.5 min, right after 46d with the same pack; run then as one command
# line): the second round of 46d's ping-pong A/B (the full-ring solo 64x128 in
# pingpong_for_narrow's place, DEEPGEMM_PINGPONG_RING=solo, on moved-41-*), then the gpu_matmul
# grid (240 s) under all three of 46d's variables (DEEPGEMM_SOLO_RING=full,
# DEEPGEMM_SOLO_MAX_K=64, DEEPGEMM_PINGPONG_RING=solo).
#     there: bash scripts/gpu-session46e.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
for l in TN NN TT NT; do
    ll=$(echo "$l" | tr A-Z a-z)
    DEEPGEMM_PINGPONG_RING=solo bench "${l}_ppsolo-2" --layout "$l" --shapes ".gpu/shapes/moved-41-$ll.txt" --check none
    bench "${l}_ppmain-2" --layout "$l" --shapes ".gpu/shapes/moved-41-$ll.txt" --check none
done
DEEPGEMM_SOLO_RING=full DEEPGEMM_SOLO_MAX_K=64 DEEPGEMM_PINGPONG_RING=solo timeout 300 \
    bash -c '. scripts/gpu-env.sh; grid grid-solo-rules 240'
