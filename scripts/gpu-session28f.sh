#!/usr/bin/env bash
# Session 28 (~100 s, after 28e in the same call): the staged epilogue's 16-column rounds given
# back to widths that are multiples of 16 but not of 32 (`28b`: 2e2ad38's 32 + 16 split cost
# 128x112 1.051 and 144 / 176 / 208 1.010-1.014 of c79e2d0's time with fp32 D; the split now
# only for odd multiples of 8). fp32 D on scripts/shapes/staged-28b.txt, main (.gpu/old, the
# fix) against 2e2ad38 (.gpu/old2), alternating three times, deepgemm alone.
#   Predicted: the 112 shapes ~0.95 (back to c79e2d0's time), 144 / 176 / 208 ~0.99, the
#   multiples of 32 (unchanged code) 0.99-1.01.
# The build: 28d's pack plus 2e2ad38 in .gpu/old2:
#     here:  ... && bash scripts/gpu-pack-old.sh HEAD && bash scripts/gpu-pack-old.sh 2e2ad38 old2
#     there: bash scripts/gpu-session28f.sh
set -uo pipefail
B=.gpu/old/deepgemm-bench DEEPGEMM_CACHE_DIR=/tmp/deepgemm-old-cache
OLD_B=.gpu/old2/deepgemm-bench OLD_CACHE=/tmp/deepgemm-old2-cache
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes/staged-28b.txt
"$B" --precompile _bf16_f32_ >/dev/null &
precompile_old _bf16_f32_ &
wait; echo "precompiled ${SECONDS}s"
alternate 3 --out fp32 --no-cublas --check none --shapes $S
finish
