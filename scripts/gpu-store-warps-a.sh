#!/usr/bin/env bash
# wip/store-warps.patch, call a (~9 min on an H200): correctness. The patch hands every box of
# a TMA-store epilogue that loads no C to a store warp of the producer warpgroup (named
# barriers 4-11; kernels/sm90/store.cuh StoreOrder), so every launch on that path changes.
#   1. Every direct nvrtc_sm90 case, the gpu_matmul grid, the grid forced onto Stream-K (the
#      owners' fixup goes through the same epilogue), gpu_pack (slab blocks, D's copy) and
#      gpu_blas. Predicted: all pass; a hang is a barrier count that does not balance (every
#      run is under `timeout`).
#     here: git apply wip/store-warps.patch; CUBINS=all bash scripts/gpu-pack.sh (session 38 left
#     the patched kernels and main's in .gpu-cubins/, so it compiles nothing if that survived)
#     there: bash scripts/gpu-store-warps-a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
save_kernels
direct || { finish devcache.txz; exit 1; }
grid grid 180
DEEPGEMM_DECOMPOSITION=streamk grid grid-streamk 150
pack_and_blas 90 60
finish
