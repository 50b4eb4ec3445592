#!/usr/bin/env bash
# Closing GPU call of session 5, after the model refit (fill-width efficiencies, N-major B
# unclustered charged): the transposed-orientation group, then the sets whose plans changed
# since the second call (waves, small-M, small-N, cliffs, fp16 4096x2112x7168), TT and NT with
# every candidate timed, tf32 TT, and PyTorch under the preload library.
#     here:  bash scripts/gpu-pack.sh; cargo build --release -p deepgemm-preload;
#            cp target/release/libdeepgemm_preload.so .gpu/
#     there: bash scripts/gpu-session5c.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
if [ -z "${SKIP_TESTS:-}" ]; then
    timeout 100 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture transposed_orientation large >"$OUT/matmul.txt" 2>&1
    echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
fi
[ -n "${ONLY_TESTS:-}" ] && exit 0
for set in waves small-m small-n cliffs; do
    $B --shapes .gpu/shapes/$set.txt >"$OUT/$set.txt" 2>&1
    echo "$set rc=$? ${SECONDS}s"
done
$B --dtype fp16 --shape 4096x2112x7168 >"$OUT/fp16.txt" 2>&1
for l in TT NT; do $B --layout $l --sweep --shape 4096x4096x4096 --shape 1000x3000x4000 >"$OUT/sweep-$l.txt" 2>&1; done
$B --layout TT --shape 8192x8192x8192 --shape 3000x1000x4000 >"$OUT/tt.txt" 2>&1
echo "benches ${SECONDS}s"
for f in waves small-m small-n cliffs fp16 tt; do
    echo "== $f"; grep -E "^[0-9]+x[0-9]+x[0-9]+ |^ratio" "$OUT/$f.txt" | awk '{print $1, $2, $5, $6, $7, $8, $9, $12}'
    grep -E "^\[" "$OUT/$f.txt" | sed -e 's/.*heuristic [0-9.]* ms, //' -e 's/); check.*//' -e 's/dg_sm90_bf16_bf16_//' | tr '\n' ' '; echo
done
for l in TT NT; do
    echo "== sweep $l"; grep -E "^\[|sweep #" "$OUT/sweep-$l.txt" | sed -e 's/(vs the timed.*//' -e 's/deepgemm first call.*heuristic [0-9.]* ms, //' | cut -c1-130 | head -24
    grep -E "^[0-9]+x[0-9]+x[0-9]+ " "$OUT/sweep-$l.txt" | awk '{print $1, $2, $5, $6, $7, $8, $9}'
done
if [ -f .gpu/libdeepgemm_preload.so ] && [ -z "${SKIP_PRELOAD:-}" ]; then
    OUT="$OUT/preload" timeout 200 bash scripts/preload/run.sh "$PWD/.gpu/libdeepgemm_preload.so" >"$OUT/preload.txt" 2>&1
    echo "preload rc=$? ${SECONDS}s"; tail -40 "$OUT/preload.txt"
    (cd "$OUT" && tar czf preload.tgz preload preload.txt && rm -rf preload)
fi
echo "done ${SECONDS}s"
