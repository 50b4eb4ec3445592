#!/usr/bin/env bash
# Session 38, call b (~2 min on an H200; traced kernels compiled there): where a TMA-store
# epilogue's ~3.5k cycles a tile go (38a's traces: 3.4-5.8k cycles after each first tile's
# mainloop, 128x136 to 128x256 alike, a quarter to a half of a short-k tile's time). The new
# `dg_epi` lines give, per 64-column box of CTA 0's first tile, the clocks after the buffer's
# wait + barrier, after stmatrix + fence, and after the second barrier + the store's issue.
# Predicted: the waits for the previous box's store reads and the serial issue of 8-column
# stores (17 a warpgroup at 128x136) dominate.
#     here: bash scripts/gpu-pack.sh     there: bash scripts/gpu-session38b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
for s in 4096x4096x4096 2680x1544x768 2024x2568x640 1568x2416x800; do
    trace "$s" --shape "$s"
done
DEEPGEMM_VARIANT=m128n128k64_s6_c1x1 trace "n128 2048x2048x2048" --shape 2048x2048x2048
DEEPGEMM_VARIANT=m128n192k64_s4_c1x1 trace "n192 3072x3072x1024" --shape 3072x3072x1024
DEEPGEMM_VARIANT=m128n176k64_s5_c1x1 trace "n176 2816x2816x1024" --shape 2816x2816x1024
DEEPGEMM_VARIANT=m128n64k64_s8_c1x1 trace "n64 2048x2048x1024" --shape 2048x2048x1024
finish
