#!/usr/bin/env bash
# Session 34, call d (~7 min, every kernel carried): the final kernels (9b54858: the bias along
# n in the TMA-store epilogue on 128 x 64 tiles only; 128- and 256-wide SASS as at the
# session's start, checked here with scripts/sass-diff.sh).
#   1. The direct nvrtc_sm90 cases and the gpu_matmul grid. Predicted: all pass.
#   2. Against main at the session's start (4514764, .gpu/old), one round each, L2 flushed:
#      decode on 64-wide swapped tiles with a bias and without (bias-col-34a; the 64-wide
#      kernels carry the bias-along-n code), the TT shapes moved onto row-major 16-column
#      slabs (moved-34c-tt), and 4096x2112x7168 (a column-major fill width) with 4096^3.
#      Predicted: bias 0.90 of the time (34b), plain decode within 1%, TT ~0.98, controls
#      within 1%.
#     here:  CUBINS=all bash scripts/gpu-pack.sh; CUBINS=... bash scripts/gpu-pack-old.sh 4514764
#     there: bash scripts/gpu-session34d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
# Ordered by need (the session's device time was nearly spent): correctness of the final
# kernels, the 64-wide kernels' timing, the controls, then the grid and the TT moves.
precompile_all
direct
finish
pair bias 1 --epilogue bias --shapes scripts/shapes/bias-col-34a.txt
pair plain 1 --shapes scripts/shapes/bias-col-34a.txt
finish
pair ctl 1 --shape 4096x2112x7168 --shape 4096x4096x4096 --iters 20
finish
grid grid 200
finish
pair tt 1 --layout TT --shapes scripts/shapes/moved-34c-tt.txt
finish
