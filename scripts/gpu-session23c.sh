#!/usr/bin/env bash
# Session 23, the second call after scripts/gpu-session23b.sh on the same pack (its caches warm
# in /tmp when the machine is still held; otherwise the kernels compile on first use):
#   1. wip/prologue-unroll.patch's small launches, both builds alternating twice (deepgemm
#      alone): under-wave and the 53 shapes of random-21d the model puts under 15 us.
#      Predicted: 0.2-0.5 us faster (1-3%), none slower beyond noise.
#   2. scripts/gpu-session23a.sh on main's build (.gpu/old, which gpu-pack-old.sh built at HEAD).
#     here:  as scripts/gpu-session23b.sh;  there: bash scripts/gpu-session23c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
small_launches > .gpu/shapes/small-launch-tn.txt
echo "small-launch shapes: $(wc -l < .gpu/shapes/small-launch-tn.txt)"
LAYOUTS=TN alternate_moved 2 small-launch --no-cublas --check sample
finish
mkdir -p "$OUT/a"
OUT=$OUT/a B=$OLD_B DEEPGEMM_CACHE_DIR=$OLD_CACHE bash "$(dirname "$0")/gpu-session23a.sh"
