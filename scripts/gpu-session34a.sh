#!/usr/bin/env bash
# Session 34, call a (~5 min, every kernel carried): the TMA-store epilogue's row-major slabs
# (fill widths with a row-major D: swapped plans and TT; C loaded by TMA into 16-column slabs)
# and its bias along n (swapped problems with a bias on tiles over 64 wide).
#   1. The direct nvrtc_sm90 cases (new: row-major slabs at every fill width, C into slabs,
#      the bias along n through both epilogues, both D orders, beta != 0, device scalars) and
#      the gpu_matmul grid (new group: swapped_bias_on_wide_tiles). Predicted: all pass.
#     here:  CUBINS=all bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session34a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
direct
finish
grid grid 240
finish
