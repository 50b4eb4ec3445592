#!/usr/bin/env bash
# Prepared in session 22, not yet run (~350 s, with 23c ~150 s more): wip/prologue-unroll.patch, the stage barriers'
# init loop unrolled. In the loop ptxas put a FENCE.VIEW.ASYNC.S before each stage's two inits
# (8-11 fences); unrolled, one before them all (the SASS after the CTA barrier is the same but
# for 5 equivalent ALU substitutions, m128n64k64_s8). 14b's trace had the barriers initialised
# ~1,380 cycles after entry and stage 0 issued at ~2,210; 13f found the first load ~4,000
# cycles after its issue, so what the issue gains, the first full stage should too.
#   1. Every direct nvrtc_sm90 case (correctness; the script stops on a failure).
#   2. DG_TRACE, both builds: 1x4096x4096 (11 stages), 496x376x1360, 4096^3 (4 stages).
#   3. (Run as scripts/gpu-session23c.sh, a second call, for the 600 s limit.)
#   Predicted: barriers initialised ~600-900 cycles sooner on 11-stage tiles (~200 on 4-stage
#   ones), the first full stage as much sooner; launches under 20 us 0.2-0.5 us faster (1-3%),
#   large ones unchanged.
#     here:  git apply wip/prologue-unroll.patch && bash scripts/gpu-pack.sh && git checkout kernels
#            && bash scripts/gpu-pack-old.sh HEAD
#     there: bash scripts/gpu-session23b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
direct || { finish; exit 1; }
precompile_all
precompile_old
for s in 1x4096x4096 496x376x1360 4096x4096x4096; do
    trace "new $s" --shape $s
    B=$OLD_B DEEPGEMM_CACHE_DIR=$OLD_CACHE trace "old $s" --shape $s
done
finish
