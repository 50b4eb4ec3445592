#!/usr/bin/env bash
# Session 14, main: the first tile's epilogue of 4095^3 (unaligned D: the staged epilogue,
# down the columns) against 4096^3's (TMA stores), from the DG_TRACE marks (consumer 0: 4 the
# first unit's mainloop done, 5 its epilogue done).
# Predicted: 4096^3 ~2,400 cycles (14b: 2,416); 4095^3 ~8,000-9,000 (14h: the GEMM 17 us
# longer over ~3.9 tiles a CTA).
#     here:  bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session14i.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
trace "4095^3 packed" --shape 4095x4095x4095 --workspace-mib 160
trace "4096^3" --shape 4096x4096x4096
trace "4096x4096x4096 with ldd 4095: 4095x4096x4096" --shape 4095x4096x4096 --workspace-mib 160
