#!/usr/bin/env bash
# Session 35, call b (~8 min): the gpu_matmul grid on SM90_FLAG_D_BOXES, then two planner
# changes on the same kernels, each against this build (their benches in .gpu/exp8 and
# .gpu/expsw share its kernel cache):
#   - exp8: a row-major D's 8-column slabs planned (now only the last partial box's; `34b`
#     measured 1.13x with every box in slabs). moved-35-slabs8-{tt,tn}. Predicted: ~1.0.
#   - expsw: 632a8fc's 5% swap margin for TN problems whose D takes the TMA store both ways
#     (34b: 1.003 over 15 moves, all slabs). moved-35-swap5-tn. Predicted ~0.98, 14336x1024x4096
#     ~0.9.
#     there: bash scripts/gpu-session35b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
grid grid 200
finish
OLD_B=.gpu/exp8/deepgemm-bench OLD_CACHE=$DEEPGEMM_CACHE_DIR pair s8tt 1 --layout TT --shapes scripts/shapes/moved-35-slabs8-tt.txt
OLD_B=.gpu/exp8/deepgemm-bench OLD_CACHE=$DEEPGEMM_CACHE_DIR pair s8tn 1 --shapes scripts/shapes/moved-35-slabs8-tn.txt
finish
OLD_B=.gpu/expsw/deepgemm-bench OLD_CACHE=$DEEPGEMM_CACHE_DIR pair sw 1 --shapes scripts/shapes/moved-35-swap5-tn.txt
finish
