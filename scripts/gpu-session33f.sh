#!/usr/bin/env bash
# Session 33, call f (~6 min, every kernel carried): main's final commit on the GPU (PDL for the
# Hopper kernels and the pack kernels around them).
#   1. The direct nvrtc_sm90 cases (every kernel family on its own) and the gpu_matmul grid.
#      Predicted: all pass, as in 33a (grid) and session 32 (direct, same cases).
#   2. Back to back (--chain 20) on pdl-33's shapes, once: predicted 33a's PDL-on figures within
#      the machine's spread.
#     here:  CUBINS=all bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session33f.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
direct
finish
grid grid 150
finish
bench chain-final --chain 20 --iters 20 --warmup 2 --check none --shapes .gpu/shapes/pdl-33.txt
finish
