#!/usr/bin/env bash
# Session 34, call a (~5 min, every kernel carried): the TMA-store epilogue's row-major slabs
# (fill widths with a row-major D: swapped plans and TT) and its bias along n.
#   1. The direct nvrtc_sm90 cases (new: row-major slabs at every fill width, the bias along n
#      through both epilogues and both D orders, widths up to 256 ahead of planning) and the
#      gpu_matmul grid. Predicted: all pass.
#     here:  CUBINS=all bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session34a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
direct
finish
grid grid 200
finish
