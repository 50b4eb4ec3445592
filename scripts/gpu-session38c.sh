#!/usr/bin/env bash
# Session 38, call c (~8 min; the new kernels compiled there, the old build's carried): the
# TMA-store epilogue storing each box of a column-major D in one store (7956e90: whole boxes
# through D's whole-box map, the last partial box through D's map boxed to its width) against
# 8eb38bb (.gpu/old, session 37's kernels: 8- or 16-column stores at the fill widths).
#   1. Every direct nvrtc_sm90 case (the fill-width cases end n inside whole and partial
#      boxes) and the whole gpu_matmul grid. Predicted: all pass.
#   2. The traces of 38b's fill-width shapes again: the epilogue's boxes. Predicted: each box
#      ~500 cycles as a whole box's, 128x136 ~1.5k cycles a tile instead of ~3.3k, 128x248
#      ~2.2k instead of ~4.9k.
#     here: bash scripts/gpu-pack.sh; bash scripts/gpu-pack-old.sh 8eb38bb old (+ session 37's
#     kernels as .gpu/old/cubins.txz)     there: bash scripts/gpu-session38c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
save_kernels
direct || { finish devcache.txz; exit 1; }
grid grid 200
for s in 2680x1544x768 2024x2568x640 1568x2416x800 1656x2576x952; do
    trace "$s" --shape "$s"
done
DEEPGEMM_VARIANT=m128n176k64_s5_c1x1 trace "n176 2816x2816x1024" --shape 2816x2816x1024
finish
