#!/usr/bin/env bash
# Session 42, call e (~3.5 min): the bulk form with larger copies (a row's copy 2 KiB with 16
# rows a CTA, 1 KiB with 32: `SkinnyVariant::chunks`; 512 bytes in `42d`, which streamed at
# ~2.5 TB/s, held by the TMA engine's cost per copy), one CTA an SM with a ring of ~200 KiB.
# Correct first (skinny_decode, narrow_and_swapped under DEEPGEMM_SKINNY=1), then timed against
# the tile plans on the small-M set's M <= 16 rows and decode-42 (two rounds), and once each
# with 4 KiB copies (DEEPGEMM_SKINNY_CHUNKS=8, 16-row variants only: the 32-row ones then fall
# back to the tiles) and 1 KiB (=2).
# Predicted: 1x28672x8192 130 -> 115-125 us (3.8-4.1 TB/s), the 30-60 MB shapes 0.8-0.9 of the
# tile plans' time; CHUNKS=8 no faster than 4 if the per-copy cost is what held `42d`.
#     here: save .gpu/cubins.txz, bash scripts/gpu-pack.sh, put it back
#     there: bash scripts/gpu-session42e.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
t() { timeout "$1" .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture "${@:2}" >>"$OUT/grid-bulk.txt" 2>&1; echo "== gpu_matmul ${*:2} rc=$? ${SECONDS}s"; }
export DEEPGEMM_SKINNY=1
t 120 skinny_decode
grep -E "^group|FAIL|panicked" "$OUT/grid-bulk.txt" | head -8
t 120 narrow_and_swapped
echo "grid-bulk: $(groups "$OUT/grid-bulk.txt")"
unset DEEPGEMM_SKINNY
grep -E '^(1|16)x' .gpu/shapes/small-m.txt > /tmp/decode-all.txt
grep -vE '^\s*#|^\s*$' .gpu/shapes/decode-42.txt >> /tmp/decode-all.txt
A=(--layout TN --shapes /tmp/decode-all.txt --iters 30 --warmup 5 --check none)
for r in 1 2; do
    DEEPGEMM_SKINNY=1 bench bulk-$r "${A[@]}"
    bench tiles-$r "${A[@]}"
done
DEEPGEMM_SKINNY=1 DEEPGEMM_SKINNY_CHUNKS=8 bench chunks8 "${A[@]}"
DEEPGEMM_SKINNY=1 DEEPGEMM_SKINNY_CHUNKS=2 bench chunks2 "${A[@]}"
finish
