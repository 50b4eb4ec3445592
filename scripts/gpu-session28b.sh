#!/usr/bin/env bash
# Prepared in session 27, not yet run (~200 s): does the staged epilogue in 32-column rounds
# (2e2ad38) cost the widths 16 past a multiple of 32? `28a` timed 128x112 with fp32 D at 1.08x
# the 16-column rounds' time on both of random-21d's shapes on it (one round; 144, 176, 208
# 0.99-1.01, the multiples of 32, unchanged code, 0.98-1.00).
#   fp32 D on scripts/shapes/staged-28b.txt (8 shapes planned on 112, 4 each on 144, 176, 208,
#   2 each on 128, 192, 224 as the control), main against c79e2d0 (the 16-column rounds),
#   alternating three times, deepgemm alone; then main against cuBLASLt there.
#   Predicted: the controls 0.99-1.01; 144 / 176 / 208 0.97-1.00 (fewer rounds); 112 either
#   ~1.0 (`28a`'s 1.08 was noise) or 1.05-1.08 on every 112 shape: then give 112 its 16-column
#   rounds back (epilogue.cuh `epilogue_staged`: the split only where the tail is 8 columns
#   wide, or a head of 64 columns) and time it with this script.
# The build: main; old: c79e2d0.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh c79e2d0
#     there: bash scripts/gpu-session28b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes/staged-28b.txt
"$B" --precompile _bf16_f32_ >/dev/null &
precompile_old _bf16_f32_ &
wait; echo "precompiled ${SECONDS}s"
alternate 3 --out fp32 --no-cublas --check none --shapes $S
bench vs-cublas-fp32 --out fp32 --check sample --shapes $S
finish
