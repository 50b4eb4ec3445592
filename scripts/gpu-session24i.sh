#!/usr/bin/env bash
# Session 24 (~170 s): narrow tiles' stages charged as a 64-wide one's where n spans several
# tile columns (`NARROW_STAGE_MIN_N` in src/plan/streamk.rs): over the kept TN sweeps the
# 128x16 / 128x32 plans measured 1.35-1.56x their estimates, 128x64 1.09-1.20x. Scored
# (scripts/score-model.sh): small-mn 1.051 -> 1.044, TT 1.024 -> 1.018, random-k8 1.023 ->
# 1.021, decode / small-m / small-n unchanged. The 34 shape-layouts it moves
# (scripts/shapes/moved-24i-*, plan-diff against 5e972a0 over every kept set), this build and
# 5e972a0's alternating twice, deepgemm alone (one kernel cache: the kernels are the same).
#   Predicted: 0.93-0.97 of the time before; the moves from 128x16 / 128x32 to 64-wide or
#   split-K pairs 5-10% faster, the same-tile ones (sk20x120 -> sk20x132) within 3%.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh 5e972a0
#     there: bash scripts/gpu-session24i.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OLD_CACHE=$DEEPGEMM_CACHE_DIR
LAYOUTS="TN NN TT" alternate_moved 2 moved-24i --no-cublas --check sample
finish
