#!/usr/bin/env bash
# Session 34, call c (~7 min; the kernels of 34a/34b, the final planner's bench): main at the
# session's start (4514764, .gpu/old) against the final commit, alternating (L2 flushed), on
#   - the 46 shape-layouts whose first plan moved (moved-34c-{tt,tn}: TT computed as NN
#     transposed on 16-column row-major slabs; no 8-column slabs, 10% swap margin as before),
#   - control shapes of set A (control-34), and bias + GELU at 4096x14336x4096 (issue 3's).
# Each run has its own log name (34b's alternates overwrote each other's logs).
# Predicted: TT moved ~0.98 of the time (34b's 16-column moves: 0.979), control within 1%.
#     here:  cp target/release/deepgemm-bench .gpu/ (34b's pack otherwise)
#     there: bash scripts/gpu-session34c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_old all
pair tt 2 --layout TT --shapes scripts/shapes/moved-34c-tt.txt
finish
pair tn 2 --layout TN --shapes scripts/shapes/moved-34c-tn.txt
pair ctl 1 --shapes scripts/shapes/control-34.txt --iters 20
pair gelu 2 --epilogue gelu_bias --shape 4096x14336x4096 --iters 20
finish
