#!/usr/bin/env bash
# GPU call for the narrow-tile / swapped small-m work (issue 4's small-M set): correctness
# first (the gpu_matmul groups that reach the new plans, nvrtc_sm90's direct narrow cases),
# then the small-M and small-N sets with the model's choice, data-parallel forced, and the
# heuristic's candidates of rank 1..3 (to calibrate the cost model against measured order).
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-small-m.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
SECONDS=0
echo "== gpu_matmul ${GPU_MATMUL_TESTS:-narrow shapes_types large epilogues alpha_beta strided}"
timeout 200 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture \
    ${GPU_MATMUL_TESTS:-narrow shapes_types large epilogues alpha_beta strided} >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
echo "== nvrtc_sm90 (direct variant cases, narrow included)"
timeout 120 .gpu/tests/nvrtc_sm90 --ignored --nocapture --test-threads=1 >"$OUT/sm90.txt" 2>&1
echo "nvrtc_sm90 rc=$? ${SECONDS}s: $(grep -E 'test result' "$OUT/sm90.txt")"; grep -E "FAIL|mismatch" "$OUT/sm90.txt" | head -5
(cd "$OUT" && tar czf tests.tgz matmul.txt sm90.txt && rm -f matmul.txt sm90.txt)
B=.gpu/deepgemm-bench
for set in small-m small-n; do
    echo "== $set, model's choice"
    $B --shapes .gpu/shapes/$set.txt --json "$OUT/$set.json" >"$OUT/$set.txt" 2>&1
    echo "rc=$? ${SECONDS}s"
    for r in ${RANKS:-1 2 3}; do
        echo "== $set, heuristic rank $r" >>"$OUT/$set.txt"
        $B --shapes .gpu/shapes/$set.txt --algo-index $r --check none >>"$OUT/$set.txt" 2>&1
    done
    echo "== $set, DEEPGEMM_DECOMPOSITION=dp" >>"$OUT/$set.txt"
    DEEPGEMM_DECOMPOSITION=dp $B --shapes .gpu/shapes/$set.txt --check none >>"$OUT/$set.txt" 2>&1
    echo "$set done ${SECONDS}s"
done
grep -E "^[0-9]+x|geomean|^== " "$OUT/small-m.txt" | head -60
