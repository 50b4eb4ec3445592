#!/usr/bin/env bash
# Prepared in session 21, not yet run: wip/dp-fixed-cost.patch charges one-wave data-parallel
# launches 2 us more (DATA_PARALLEL_FIXED_S): over `21a`'s sweeps such launches ran a median
# 5.9 us over their estimates, Stream-K ones 2.9. Scored on the kept sweeps: random-k8 TN
# 1.034 -> 1.025 of the fastest timed, NN 1.021 -> 1.023, TT 1.024 -> 1.027, decode 1.014 ->
# 1.008, under-wave 1.044 -> 1.046. It moves 196 shape-layouts (scripts/shapes/moved-22a-*:
# mostly small-m, small-n and random-21d, towards Stream-K and split-K), and one unit test fails
# with it: 4096x128x7168 leaves the split-K pairs (25.8 us in `21b`) for 128x64 +swap+sk64x128
# (not timed). Every moved shape-layout against main, alternating twice, cuBLASLt alongside.
#   Predicted: geomean 0.97-1.00 of main's time; the decode-like moves (small-m, small-n) the
#   most uncertain (20j: more CTAs 5-23% slower on 128-row tiles).
#     here:  git apply wip/dp-fixed-cost.patch && bash scripts/gpu-pack.sh && git checkout src
#            && bash scripts/gpu-pack-old.sh HEAD
#     there: bash scripts/gpu-session22a.sh (~400 s: split it by layout if the limit nears)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
precompile_old
alternate_moved 2 moved-22a --check sample
finish
