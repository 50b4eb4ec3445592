#!/usr/bin/env bash
# Prepared in session 26, not yet run (~350 s): correctness of wip/edge-tiles-64.patch. A tile
# past the matrix edge by 64 rows (columns) or more loads its boxes from an origin moved back by
# the overhang's whole 64s (kernels/sm90/gemm.cuh `inside`), so under 64 rows of a box stay out
# of bounds; its epilogue skips the tile before's rows and columns as whole consumer warpgroups
# and TMA-store boxes (sm90/store.cuh), or element by element in the staged path. Unlike
# wip/edge-tiles-8.patch (`26f`: correct, but a moved tile left the TMA store for the staged
# epilogue, up to 1.96x slower on short k), every tile keeps its epilogue path.
#   1. Every direct nvrtc_sm90 case (m = 300 on 128 rows and n = 404 on 192 columns move).
#   2. The gpu_matmul grid with the model's plans (tiles_past_the_edges: 2472x1544, its last
#      tile row 40 of 128, last column 8 of 128, after TMA-stored tiles, in place, GELU+bias,
#      row-major D).
#   3. The grid forced onto Stream-K (the moved owners' fixup through the TMA store).
#   Predicted: everything passes.
# The build: fbfd1ba (or a later main with the same kernels) with the patch applied.
#     here:  git apply wip/edge-tiles-64.patch && bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh fbfd1ba
#     there: bash scripts/gpu-session27a.sh   (then scripts/gpu-session27b.sh on the same pack)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
# Every kernel first, on every core (`26f`'s grid compiled its kernels one by one: 211 s against
# 92 for the Stream-K grid after it).
precompile_all
direct || { finish; exit 1; }
grid grid 300 || { finish; exit 1; }
DEEPGEMM_DECOMPOSITION=streamk grid grid-streamk $((590 - SECONDS))
finish
