#!/usr/bin/env bash
# Session 47, call e (~2 min): main after `plan::solo_split_for_few_tiles` (ef0df3f) against
# cuBLASLt on the general sets it moved (small-mn-long-k 8 shapes a layout, random-21d 4,
# under-wave 1), one round each, the kernels of their plans precompiled.
#     here: bash scripts/gpu-pack.sh
#     there: timeout 300 bash scripts/gpu-session47e.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile "$(cat scripts/shapes/kernels-47e.txt)" >/dev/null
echo "precompile ${SECONDS}s"
bench small-mn-long-k-tn --layout TN --shapes .gpu/shapes/small-mn-long-k.txt
bench small-mn-long-k-nn --layout NN --shapes .gpu/shapes/small-mn-long-k.txt --check none
bench under-wave-tn --layout TN --shapes .gpu/shapes/under-wave.txt --check none
bench random-21d-tn --layout TN --shapes .gpu/shapes/random-21d.txt --check none
bench random-21d-nn --layout NN --shapes .gpu/shapes/random-21d.txt --check none
