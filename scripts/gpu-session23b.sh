#!/usr/bin/env bash
# Prepared in session 22, not yet run (~500 s): wip/prologue-unroll.patch, the stage barriers'
# init loop unrolled. In the loop ptxas put a FENCE.VIEW.ASYNC.S before each stage's two inits
# (8-11 fences); unrolled, one before them all (the SASS after the CTA barrier is the same but
# for 5 equivalent ALU substitutions, m128n64k64_s8). 14b's trace had the barriers initialised
# ~1,380 cycles after entry and stage 0 issued at ~2,210; 13f found the first load ~4,000
# cycles after its issue, so what the issue gains, the first full stage should too.
#   1. Every direct nvrtc_sm90 case (correctness; the script stops on a failure).
#   2. DG_TRACE, both builds: 1x4096x4096 (11 stages), 496x376x1360, 4096^3 (4 stages).
#   3. Small launches, both builds alternating twice (deepgemm alone): under-wave and the 53
#      shapes of random-21d the model puts under 15 us.
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
grep -vE '^\s*#|^\s*$' .gpu/shapes/random-21d.txt | while read -r s _; do echo "$s"; done > /tmp/r21d.txt
"$B" --plans --shapes /tmp/r21d.txt | grep -A1 "^[0-9]" | grep -v "^--" | paste - - | awk '$2 + 0 < 15 {sub(":", "", $1); print $1}' > .gpu/shapes/small-launch-tn.txt
cat .gpu/shapes/under-wave.txt >> .gpu/shapes/small-launch-tn.txt
LAYOUTS=TN alternate_moved 2 small-launch --no-cublas --check sample
finish
