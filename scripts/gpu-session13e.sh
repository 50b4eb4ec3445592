#!/usr/bin/env bash
# Session 13, fifth call (branch next/sk-fixup, the kernels of 13d): the gpu_matmul grid with
# the model's plans, and the issue's wave-set criterion (Stream-K against data-parallel on the
# same kernel) re-measured with the faster fixup: --sweep with DEEPGEMM_VARIANT narrowed to
# one tile times each of its schedules.
# Predicted: the grid passes. 128x256: Stream-K (the model's sk choice) >= 1.1x data-parallel
# on every shape but 1664^2 (there ~1.1: 13d measured 128x240 at 1.115x); 128x128 as session
# 4 (1.18-1.28x) or better, 3200^2 on 128x128 (4.7 tiles a CTA) still below 1.
#     here:  bash scripts/gpu-pack.sh (on the branch)
#     there: bash scripts/gpu-session13e.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile m128n256k64_s4_c1x1,m128n128k64_s6_c1x1 >/dev/null; echo "precompile ${SECONDS}s"
timeout 150 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
for t in m128n256k64_s4_c1x1 m128n128k64_s6_c1x1; do
    DEEPGEMM_VARIANT=$t timeout 200 "$B" --sweep --no-cublas --shapes .gpu/shapes/waves.txt >"$OUT/sweep-$t.txt" 2>&1
    echo "== sweep $t rc=$? ${SECONDS}s"
    grep -E "^\[|sweep #" "$OUT/sweep-$t.txt" | sed -e 's/(vs the timed.*//' -e 's/deepgemm first call.*heuristic [0-9.]* ms, //' -e 's/dg_sm90_bf16_bf16_tn_//' | cut -c1-150
done
(cd "$OUT" && tar czf tests.tgz matmul.txt && rm -f matmul.txt)
