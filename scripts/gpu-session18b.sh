#!/usr/bin/env bash
# Session 18: the L2 promotion rule (128 bytes where an operand's lines start off the L2's
# 128-byte lines, 256 elsewhere: src/runtime/tensor_map.rs `operand_l2_promotion`), before the
# model is refitted to it. DEEPGEMM_L2_PROMOTION=256 gives main's maps on the same build.
#   1. The pitch sweep of session 17 with and without clusters of 2.
#   2. random-k8 and under-wave: the rule against promotion 256, alternating (deepgemm alone),
#      then against cuBLASLt. Predicted (18a: 5-15% on five mid-sector shapes): mid-sector and
#      sector shapes 5-15% faster, aligned ones unchanged; random-k8 0.838 -> ~0.90.
#   3. Every candidate timed against its estimate (--sweep) on both sets: the data to refit
#      the model's per-line costs.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session18b.sh (.gpu carried, ~450 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
run() {
    local l=$1; shift
    for s in "$@"; do
        timeout 60 "$B" --no-cublas --check none --iters 20 --warmup 5 --layout "$l" --shape "$s" >"$OUT/t.txt" 2>&1
        echo "$l $s ${DEEPGEMM_CLUSTER:+c=$DEEPGEMM_CLUSTER }$(grep -E '^[0-9]+x' "$OUT/t.txt" | awk '{print $5}') $(grep -oE 'dg_sm90[^ ,)]*' "$OUT/t.txt" | head -1)"
    done
}
for c in 1 2; do
    DEEPGEMM_CLUSTER=$c run TN 2048x2048x8192 2048x2048x8200 2048x2048x8208 2048x2048x8216 2048x2048x8224 2048x2048x8256 1040x4141x8320 1040x4141x8344 1040x4141x8352 4096x4096x4104
    DEEPGEMM_CLUSTER=$c run NN 2048x2048x8200 1000x3000x4000
    DEEPGEMM_CLUSTER=$c run NT 2056x2056x8192
done
echo "pitch ${SECONDS}s"
for f in random-k8 under-wave; do
    for r in 1 2; do
        bench $f-rule-$r --no-cublas --check none --shapes .gpu/shapes/$f.txt
        DEEPGEMM_L2_PROMOTION=256 bench $f-256-$r --no-cublas --check none --shapes .gpu/shapes/$f.txt
    done
    bench $f-vs-cublas --check sample --shapes .gpu/shapes/$f.txt
done
for f in random-k8 under-wave; do
    timeout 240 "$B" --sweep --no-cublas --check none --iters 20 --warmup 3 --shapes .gpu/shapes/$f.txt >"$OUT/sweep-$f.txt" 2>&1
    echo "== sweep $f rc=$? ${SECONDS}s"
done
finish
