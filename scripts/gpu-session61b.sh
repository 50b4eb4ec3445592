#!/usr/bin/env bash
# Prepared in session 61 (no device was lent; ~6-9 min, two calls if the first runs out):
# what session 61 changed and could not run. First the API tests (new: a heuristic algo reused
# on other m runs its configuration; the configured-algo test's tf32 TN case must run a
# configuration of every family AlgoGetIds lists, the solo one, id 3, among them, and counts
# refusals as not run; the heuristic during a GLOBAL capture tunes and the capture survives),
# then, as far as the time goes, gpu_matmul's grid groups forced onto the solo tiles
# (DEEPGEMM_SOLO=1: tf32 TN's solo tiles ran only 21 direct cases in session 60). Expect 0
# failed; a tf32 TN failure under DEEPGEMM_SOLO=1 alone is the solo path's.
#     here:  bash scripts/gpu-pack.sh; find .gpu/tests -type f ! -name gpu_matmul ! -name gpu_autotune -delete
#     there: timeout 560 bash scripts/gpu-session61b.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
T=.gpu/tests
timeout 200 $T/gpu_matmul --ignored --test-threads=1 --nocapture configured_algos \
    heuristic_algos_reused_on_other_shapes >"$OUT/configured.txt" 2>&1
echo "configured + reused algos rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/configured.txt")"
grep -E "^group |FAIL|panicked" "$OUT/configured.txt" | head -8
timeout 120 $T/gpu_autotune --ignored --test-threads=1 --nocapture tunes_once_then_reads_the_table \
    >"$OUT/autotune.txt" 2>&1
echo "autotune rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/autotune.txt" | tail -1)"
grep -E "^group |FAIL|panicked|lines in the table" "$OUT/autotune.txt" | head -8
for t in shapes_types_transposes epilogues alpha_beta_in_place; do
    left=$((530 - SECONDS))
    [ $left -gt 60 ] || { echo "solo $t: skipped (${SECONDS}s)"; continue; }
    DEEPGEMM_SOLO=1 timeout $left $T/gpu_matmul --ignored --test-threads=1 --nocapture \
        --exact "$t" >"$OUT/solo-$t.txt" 2>&1
    echo "solo $t rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/solo-$t.txt")"
    grep -m5 -E "^group |FAIL|panicked" "$OUT/solo-$t.txt"
done
finish
