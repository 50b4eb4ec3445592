#!/usr/bin/env bash
# Prepared in session 61 (no device was lent; ~5 min): correctness owed by the tf32 solo tiles
# (session 60: 21 direct cases and the bench's float64 checks only). gpu_matmul's grid groups
# with every tf32 transpose (TN is the solo tiles' layout) forced onto the solo variants
# (DEEPGEMM_SOLO=1, 16-bit too), then the configured-algo test (its tf32 TN case must run
# a configuration of every family AlgoGetIds lists, the solo one, id 3, among them), and the
# heuristic's algos reused on other m (new in session 61: their configuration runs there).
# Expect 0 failed; a tf32 TN failure here and not in 61a's default runs is the solo path's.
#     here:  bash scripts/gpu-pack.sh; find .gpu/tests -type f ! -name gpu_matmul -delete
#     there: timeout 560 bash scripts/gpu-session61b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
for t in shapes_types_transposes epilogues alpha_beta_in_place; do
    DEEPGEMM_SOLO=1 timeout 150 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture \
        --exact "$t" >"$OUT/solo-$t.txt" 2>&1
    echo "solo $t rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/solo-$t.txt")"
    grep -m5 -E "FAIL|panicked" "$OUT/solo-$t.txt"
done
timeout 150 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture configured_algos \
    heuristic_algos_reused_on_other_shapes >"$OUT/configured.txt" 2>&1
echo "configured algos rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/configured.txt")"
grep -m5 -E "FAIL|panicked|configurations ran" "$OUT/configured.txt"
finish
