#!/usr/bin/env bash
# Session 58, second call (~1-2 min with a devcache): the only moves wip/no-small-phase.patch
# makes on random-21d (480 shape-layouts, bf16 and tf32; none on set A, cliffs, small-m,
# waves): 3320x2952x13488 and 3624x2688x9944, every candidate of main's (pre-patch) build and
# cuBLASLt interleaved. Session 37's `37g` had 3624x2688x9944 NT 357.8 us on 128x128 clusters
# of 2 x 1 (the patched first plan) against 292.4 on the small-phase hybrid it drops.
# Predicted: the patched first plans within 3% of the old ones, except NT 3624x2688x9944
# bf16, which may lose up to ~10% (the 37g gap, narrowed by later kernel work).
#     there: timeout 300 bash scripts/gpu-session58b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
for l in NT TT; do
    sweep moved58b-bf16-$l 60 --interleave --iters 12 --layout $l --shapes .gpu/shapes/moved-58b.txt
done
for l in TN NN TT NT; do
    sweep moved58b-tf32-$l 60 --interleave --iters 12 --dtype tf32 --layout $l --shapes .gpu/shapes/moved-58b.txt
done
finish
