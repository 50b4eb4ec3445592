#!/usr/bin/env bash
# Prepared in session 55 (no device lent), one call (~5 min with a devcache; pack main first):
# algos made by deepgemmLtMatmulAlgoInit and configured through AlgoConfigSetAttribute, as
# engines' GEMM profilers do (CPU-tested only: tests/api_algo.rs, plan::algo's tests).
# gpu_matmul `configured_algos_match_the_reference`: bf16, fp16 -> fp32 and tf32, NN 300x200x520
# and TT 129x1000x2000, beta 0.5, every id AlgoGetIds lists, "any" and three listed tiles, no
# split / split-K in two / Stream-K; each configuration AlgoCheck accepts runs with the workspace
# it reports and is checked against the float64 reference; and each id's first four results of
# the heuristic under SEARCH_MODE LIMITED_BY_ALGO_ID (configured algos among them).
# Predicted: all pass; the refused count printed (configurations no plan of the shape has).
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 590 bash scripts/gpu-session55a.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
timeout 300 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture configured_algos \
    >"$OUT/gpu_matmul-configured.txt" 2>&1
echo "== gpu_matmul configured_algos rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/gpu_matmul-configured.txt")"
grep -m8 -E "FAIL|panicked|refused|passed" "$OUT/gpu_matmul-configured.txt"
# SM_COUNT_TARGET (session 55, CPU-tested only): the heuristic's plans for 1, 33, 66, 100 SMs on
# five shapes (every decomposition family: data-parallel, Stream-K, split-K, decode), checked.
# Predicted: all pass.
timeout 150 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture sm_count_target \
    >"$OUT/gpu_matmul-smtarget.txt" 2>&1
echo "== gpu_matmul sm_count_target rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/gpu_matmul-smtarget.txt")"
grep -m8 -E "FAIL|panicked|passed" "$OUT/gpu_matmul-smtarget.txt"
# Timing with a carve-out, both libraries told the same (--sm-target): a prefill GEMM and a
# decode one on 116 SMs (an H100 or H200 SXM less 16) and on 66.
# Predicted: deepgemm's ratio to cuBLASLt within 5% of its all-SM ratio at 116; at half, both
# about twice their all-SM time on the compute-bound shape, the decode shape less slowed.
for t in 0 116 66; do
    bench smt-$t --check sample --iters 20 --warmup 3 --sm-target $t --layout TN \
        --shape 4096x14336x4096 --shape 16x14336x4096 --shape 2048x2048x8192
done
finish
