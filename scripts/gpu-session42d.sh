#!/usr/bin/env bash
# Session 42, call d (~4 min): the skinny kernel's Hopper form (kernels/skinny/bulk.cuh: rows
# brought in by bulk copies, one per row and stage, a producer warp, persistent grid), planned
# under DEEPGEMM_SKINNY=1. First correct (gpu_matmul's skinny_decode and the decode groups),
# then timed against the tile plans (DEEPGEMM_SKINNY unset) on the small-M set's M <= 16 rows
# and decode-42, two rounds alternating.
# Predicted: the large shapes at the tile plans' 3.6-3.7 TB/s or a little above (0.9-1.0 of
# their time), the 30-60 MB ones 0.75-0.9 (no TMA map, one launch's fixed costs lower).
#     here: save .gpu/cubins.txz, bash scripts/gpu-pack.sh, put it back
#     there: bash scripts/gpu-session42d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
t() { timeout "$1" .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture "${@:2}" >>"$OUT/grid-bulk.txt" 2>&1; echo "== gpu_matmul ${*:2} rc=$? ${SECONDS}s"; }
export DEEPGEMM_SKINNY=1
t 120 skinny_decode
grep -E "^group|FAIL|skinny variants|panicked" "$OUT/grid-bulk.txt" | head -12
t 120 narrow_and_swapped
t 60 repeated_runs_are_bitwise_identical
t 60 back_to_back_dependent_calls
echo "grid-bulk: $(groups "$OUT/grid-bulk.txt")"
unset DEEPGEMM_SKINNY
grep -E '^(1|16)x' .gpu/shapes/small-m.txt > /tmp/decode-all.txt
grep -vE '^\s*#|^\s*$' .gpu/shapes/decode-42.txt >> /tmp/decode-all.txt
A=(--layout TN --shapes /tmp/decode-all.txt --iters 30 --warmup 5 --check none)
for r in 1 2; do
    DEEPGEMM_SKINNY=1 bench bulk-$r "${A[@]}"
    bench tiles-$r "${A[@]}"
done
finish
