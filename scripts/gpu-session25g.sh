#!/usr/bin/env bash
# Session 25 (~200 s): `L2_RELOAD_MIN_BYTES` 16 -> 24 MB (src/plan/streamk.rs): the shape-layouts
# it moves over every set (mostly small m and n with a long k leaving a swapped plan, and
# 2232x288x4256 leaving its swapped 128x64 plan for 90 unswapped tiles: `25b` 28.8 -> 23.1 us),
# both builds alternating twice, deepgemm alone. Old: dc2fac1 (main).
#   Predicted: 2232x288x4256 TN ~0.80, 936x312x8960 ~0.96, 600x240x16144 ~1.05; all ~0.97-0.99.
# The build: dc2fac1 with `const L2_RELOAD_MIN_BYTES: f64 = 24e6;` (measured 1.010, not kept).
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh dc2fac1
#     there: bash scripts/gpu-session25g.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OLD_CACHE=$DEEPGEMM_CACHE_DIR # the same kernels
"$B" --precompile _bf16_bf16_ >/dev/null; echo "precompile ${SECONDS}s"
alternate_moved 2 moved-25g --no-cublas --check none
finish
