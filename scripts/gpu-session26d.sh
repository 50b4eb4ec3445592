#!/usr/bin/env bash
# Session 26 (~400 s): correctness of the tiles moved inside A and B (kernels/sm90/gemm.cuh
# `inside`: a ragged last tile row / column loads its boxes from an origin moved back by whole
# 8-element groups, computes rows / columns of the tile before too, and its staged epilogue
# skips them; such a tile never takes the TMA store). Ran a first version of
# wip/edge-tiles-8.patch (in git at f071503) that rounded the move up (the box no longer
# covered the tile's last columns: 75 and 89 unwritten cases); `26f` ran the patch as kept.
#   1. Every direct nvrtc_sm90 case.
#   2. The gpu_matmul grid with the model's plans (tiles_past_the_edges among them: 260 tiles
#      of 128 x 128, ragged both ways, after TMA-stored tiles, in place, GELU+bias, row-major D).
#   3. The grid forced onto Stream-K (the moved tiles' fixup).
#   Predicted: everything passes.
#     here:  (the first version) bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session26d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
direct
timeout 240 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/grid.txt" 2>&1
echo "== grid rc=$? ${SECONDS}s: $(groups "$OUT/grid.txt")"
DEEPGEMM_DECOMPOSITION=streamk timeout $((590 - SECONDS)) .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/grid-streamk.txt" 2>&1
echo "== grid streamk rc=$? ${SECONDS}s: $(groups "$OUT/grid-streamk.txt")"
finish
