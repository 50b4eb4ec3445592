#!/usr/bin/env bash
# Prepared in session 55 (no device lent), one call (~3 min with a devcache; pack main first):
# algos made by deepgemmLtMatmulAlgoInit and configured through AlgoConfigSetAttribute, as
# engines' GEMM profilers do (CPU-tested only: tests/api_algo.rs, plan::algo's tests).
# gpu_matmul `configured_algos_match_the_reference`: bf16, fp16 -> fp32 and tf32, NN 300x200x520
# and TT 129x1000x2000, beta 0.5, every id AlgoGetIds lists, "any" and three listed tiles, no
# split / split-K in two / Stream-K; each configuration AlgoCheck accepts runs with the workspace
# it reports and is checked against the float64 reference.
# Predicted: all pass; the refused count printed (configurations no plan of the shape has).
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 590 bash scripts/gpu-session55a.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
timeout 400 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture configured_algos \
    >"$OUT/gpu_matmul-configured.txt" 2>&1
echo "== gpu_matmul configured_algos rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/gpu_matmul-configured.txt")"
grep -m8 -E "FAIL|panicked|refused|passed" "$OUT/gpu_matmul-configured.txt"
finish
