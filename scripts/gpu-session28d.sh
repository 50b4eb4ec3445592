#!/usr/bin/env bash
# Prepared in session 27, not yet run (~400 s): correctness of wip/f32-tma-store.patch. fp32 D
# (column-major, beta = 0) goes through TMA stores as 16-bit D does: per consumer warpgroup
# 64 x 16 buffers written by st.shared under the 128-byte swizzle, each stored as two 32-row
# TMA boxes (kernels/sm90/store.cuh `epilogue_tma_store_f32`); both buffers fit in the
# general staging, so no fp32 variant loses a stage; one instantiation for every activation.
#   1. Every direct nvrtc_sm90 case (8 new fp32 TMA-store cases: 256 / 248 / 176 / 168 / 64
#      wide, each epilogue, m = 280 and 300 (the last warpgroup's second half past m or ragged),
#      n = 203, batches, fp16 and tf32 in).
#   2. The gpu_matmul grid (its fp32 D cases with beta = 0 now take the TMA store), then forced
#      onto Stream-K (the owners' partials summed into the fp32 boxes, 8 registers a box).
#   Predicted: everything passes.
# The build: main with the patch applied.
#     here:  git apply wip/f32-tma-store.patch && bash scripts/gpu-pack.sh && git checkout -- kernels src tests &&
#            bash scripts/gpu-pack-old.sh HEAD
#     there: bash scripts/gpu-session28d.sh   (then 28e on the same pack)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
direct || { finish; exit 1; }
grid grid 200 || { finish; exit 1; }
DEEPGEMM_DECOMPOSITION=streamk grid grid-streamk $((590 - SECONDS))
finish
