#!/usr/bin/env bash
# Prepared in session 24, run in session 25 (BENCHMARKS.md; the patch was deleted after it and is
# in git at f276b86: `git show f276b86:wip/reduce-scatter.patch`) (~420 s): wip/reduce-scatter.patch with the finishers'
# bulk copies (each round's slices of every partial copied into the idle ring at once, one L2
# round trip, summed from shared memory; the register batches where they do not fit: 128x128
# over 12+ CTAs, 128x64 over 9+). `24h` measured the register version: the finisher's
# one-round sum of 5 partials took 6,600 cycles in three batches of L2 round trips.
#   1-4: scripts/gpu-session24h.sh (direct cases, traces, sweeps off / on, the model's picks).
#      (into $OUT/h)
#   5: the gpu_matmul grid forced onto split-K (scatter where 3+ CTAs a tile split evenly).
#   Predicted: all pass; 416x568x8000 128x128 sk20x100's finisher epilogue ~6,600 -> 2,500-3,500
#   cycles; 128x128 splits of 5+ CTAs 0.85-0.95 of the owner's time, 128x64 0.97-1.02; the
#   fastest plan of the 28 shapes ~0.97 of the owner path's fastest (1.004 in `24h`).
#     here:  git apply wip/reduce-scatter.patch && bash scripts/gpu-pack.sh && git checkout kernels src tests
#     there: bash scripts/gpu-session25a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
mkdir -p "$OUT/h"
OUT=$OUT/h bash "$(dirname "$0")/gpu-session24h.sh"
DEEPGEMM_DECOMPOSITION=splitk timeout $((590 - SECONDS)) .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/grid-splitk.txt" 2>&1
echo "== grid splitk rc=$? ${SECONDS}s: $(groups "$OUT/grid-splitk.txt")"
finish
