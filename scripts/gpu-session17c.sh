#!/usr/bin/env bash
# Session 17: L2 requests in the cost model (plan::streamk `l2_request_s`). A TMA line that starts
# mid-sector (a 16-bit leading dimension of 8 mod 16, half of all TMA-legal ones) costs ~4x
# the L2 requests of an aligned one, and the requests then bound the launch (2048x2048x8200 TN
# 1.6x the time of k = 8192; cuBLASLt 1.04x). Clusters of 2 halve B's requests (multicast).
# Predicted: on random-k8 (m, n, k multiples of 8) the shapes with k = 8 mod 16 whose plan moves
# onto c2x1 tiles run 20-40% faster; the others within noise; correctness unchanged (existing
# kernels; the default gpu_matmul grid re-run as a check on the new choices).
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session17c.sh  (.gpu carried, ~400 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OLD_CACHE=$DEEPGEMM_CACHE_DIR  # same kernels: one cache
precompile_all
F=.gpu/shapes/random-k8.txt
alternate 2 --no-cublas --check none --shapes $F
bench new-vs-cublas --check sample --shapes $F
bench_old old-vs-cublas --check sample --shapes $F
for c in 1 2; do
    DEEPGEMM_CLUSTER=$c bench nn-c$c --no-cublas --check sample --layout NN --shape 1000x3000x4000 --shape 2048x2048x8200 --shape 1384x3442x3456
done
timeout 200 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
finish
