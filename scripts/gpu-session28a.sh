#!/usr/bin/env bash
# Prepared in session 26, not yet run (~500 s): wip/staged-rounds.patch (stacked on
# wip/edge-tiles-64.patch): the staged epilogue of a width that is not a multiple of 32 takes
# its whole 32-column rounds first, then the rest (248: 7 x 32 + 3 x 8 = 10 rounds instead of
# 31 of 8; 176: 5 x 32 + 16 = 6 instead of 11), each part a compile-time sub-array of the
# accumulators and a Stream-K partial's part read from its offset in the slot. 168 registers,
# no spills or stack on all 564 variants (with edge-tiles-64 under it).
#   1. Every direct nvrtc_sm90 case; the gpu_matmul grid (fp32 D, beta != 0, odd leading
#      dimensions and row-major D take the staged epilogue), and forced onto Stream-K (the
#      owners' staged fixup in two parts).
#   2. fp32 D on scripts/shapes/staged-27d.txt and random-21d, against the build without it,
#      alternating twice, deepgemm alone.
#   Predicted: everything passes; fp32 D on the odd-8 widths (248, 232, 200, 184, 168, 136)
#   0.7-0.85 of the time on short k (`27d` will have measured what the 8-column rounds cost),
#   widths that are multiples of 32 unchanged (the same code), random-21d fp32 ~0.97.
# The build: main with edge-tiles-64 merged (or applied), this patch on top; old: without it.
#     here:  git apply wip/staged-rounds.patch && bash scripts/gpu-pack.sh && git checkout kernels &&
#            bash scripts/gpu-pack-old.sh HEAD
#     there: bash scripts/gpu-session28a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
precompile_all
precompile_old _f32_ &
direct || { finish; exit 1; }
wait
grid grid 200 || { finish; exit 1; }
DEEPGEMM_DECOMPOSITION=streamk grid grid-streamk 150 || { finish; exit 1; }
alternate 2 --out fp32 --no-cublas --check none --shapes $S/staged-27d.txt --shapes $S/random-21d.txt
# 3. (added in session 27, after `27d`: fp32 D on staged-27d 0.564 of cuBLASLt's speed, the
#    odd-8 widths 1.5x their 256-wide neighbours') the model's plans against cuBLASLt, fp32 D.
#    Predicted: ~0.70 (the planned 248 / 232 / 184 / 168 / 136 near the 256 / 128 tiles' times,
#    which still lose to cuBLASLt by ~1.25x: fp32 D is staged, not TMA-stored).
bench vs-cublas-fp32 --out fp32 --check sample --shapes $S/staged-27d.txt
finish
