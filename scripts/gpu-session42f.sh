#!/usr/bin/env bash
# Session 42, call f (~3 min): the bulk form with its stages released after the mmas (`42e`
# released them right after the loads: wrong results on long-k shapes with several items a
# CTA) and 16 rows a CTA everywhere (2 KiB copies). Correct first (skinny_decode with its
# long-k cases, narrow_and_swapped, bitwise repeats, all under DEEPGEMM_SKINNY=1), then the
# bench's own check and timing against the tile plans on the small-M set's M <= 16 rows and
# decode-42, two rounds.
# Predicted: every bench result PASS; M = 1 at the tile plans' time or up to 10% under, M = 16
# 1.1-1.3x over (16 columns of B re-copied every stage).
#     here: save .gpu/cubins.txz, bash scripts/gpu-pack.sh, put it back
#     there: bash scripts/gpu-session42f.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
t() { timeout "$1" .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture "${@:2}" >>"$OUT/grid-bulk.txt" 2>&1; echo "== gpu_matmul ${*:2} rc=$? ${SECONDS}s"; }
export DEEPGEMM_SKINNY=1
t 150 skinny_decode
grep -E "^group|FAIL|panicked" "$OUT/grid-bulk.txt" | head -8
t 120 narrow_and_swapped
t 60 repeated_runs_are_bitwise_identical
echo "grid-bulk: $(groups "$OUT/grid-bulk.txt")"
unset DEEPGEMM_SKINNY
grep -E '^(1|16)x' .gpu/shapes/small-m.txt > /tmp/decode-all.txt
grep -vE '^\s*#|^\s*$' .gpu/shapes/decode-42.txt >> /tmp/decode-all.txt
A=(--layout TN --shapes /tmp/decode-all.txt --iters 30 --warmup 5 --check none)
for r in 1 2; do
    DEEPGEMM_SKINNY=1 bench bulk-$r "${A[@]}"
    echo "bulk-$r: $(grep -c -- '-> PASS' "$OUT/bulk-$r.txt") PASS, $(grep -c -- '-> FAIL' "$OUT/bulk-$r.txt") FAIL"
    bench tiles-$r "${A[@]}"
done
finish
