#!/usr/bin/env bash
# Session 23: deeper partial batches in the Stream-K / split-K owner's sum (`sum_partials`,
# kernels/sm90/epilogue.cuh: contributors a batch sized by the registers the accumulators leave,
# 2-8, instead of 2 on tiles wider than 64 and 4 on the narrow ones), against main (.gpu/old).
#   1. DG_TRACE, both builds, the owner's phases (marks 10 -> 11: flags seen -> epilogue done)
#      on split plans with 2-10 contributors a tile.
#   2. Both builds alternating twice (deepgemm alone, the model's plans, which the change does not
#      move): small-mn-long-k, the 23a losers, under-wave, the small-M rows M = 64 and 128.
#   Predicted: an owner's fixup ~800 cycles shorter per batch saved (600x240x16144 on 128x128
#   sk10x110, 10 contributors: 20 batches -> 8, ~5 us); launches with split tiles of 5+ CTAs
#   1-5 us faster, small-mn-long-k 0.95-0.98 of the time before; data-parallel plans unchanged.
#   Measured (run once, at b6d8f1e + the change): 1.013 of the time before (split plans 1.014,
#   the others 1.010), so the change was dropped and no longer rebuilds; BENCHMARKS.md session 23.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh <main before the change>
#     there: bash scripts/gpu-session23d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
precompile_old
tr2() { # LABEL VARIANT SHAPE
    DEEPGEMM_VARIANT=$2 trace "new $1" --shape $3
    DEEPGEMM_VARIANT=$2 B=$OLD_B DEEPGEMM_CACHE_DIR=$OLD_CACHE trace "old $1" --shape $3
}
tr2 "416x568x8000 n128" m128n128k64_s6_c1x1 416x568x8000
tr2 "600x240x16144 n128" m128n128k64_s6_c1x1 600x240x16144
tr2 "256x288x7224 n64" m128n64k64_s8_c1x1 256x288x7224
tr2 "64x4096x4096" m128n 64x4096x4096
{
    grep -vE '^\s*#|^\s*$' .gpu/shapes/small-mn-long-k.txt
    printf '%s\n' 416x568x8000 192x576x12072 352x1888x5904 128x24576x1536
    grep -vE '^\s*#|^\s*$' .gpu/shapes/under-wave.txt
    grep -E '^(64|128)x' .gpu/shapes/small-m.txt
} | awk '{print $1}' > .gpu/shapes/fixup-tn.txt
echo "fixup shapes: $(wc -l < .gpu/shapes/fixup-tn.txt)"
LAYOUTS=TN alternate_moved 2 fixup --no-cublas --check sample
finish
