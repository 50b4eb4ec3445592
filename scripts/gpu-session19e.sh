#!/usr/bin/env bash
# Session 19, fourth call: Stream-K over multicast clusters (kernels/sm90/gemm.cuh
# `StreamKSlots`: a cluster is one Stream-K unit walking row pairs, B multicast as in its
# data-parallel tiles). 19d found the off-line rows (k a multiple of 8, not 64) cost deepgemm
# 1.3-1.4x on long-k shapes under a wave and cuBLASLt (clusters of 2-8) far less; multicast
# halves B's L2 requests.
#   1. Correctness: the gpu_matmul grid with clusters forced (DEEPGEMM_CLUSTER=2) onto
#      Stream-K and onto split-K.
#   2. Every candidate with clusters forced (--sweep) on the k-alignment pairs and the
#      under-wave shapes, next to main's choice and cuBLASLt.
#   3. Data-parallel clusters against the build before (TT random-k8, clustered mostly): the
#      kernels now carry the Stream-K path.
#   Predicted: 496x1000x11400 on 128x128 or 128x192 clusters + Stream-K 36-40 us (45.7 without
#   clusters, cuBLASLt 31); aligned k within 5% of the unclustered plans; TT unchanged (+-1%).
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh HEAD (the commit before)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
for dec in streamk splitk; do
    DEEPGEMM_CLUSTER=2 DEEPGEMM_DECOMPOSITION=$dec timeout 200 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/grid-c2-$dec.txt" 2>&1
    echo "grid clusters $dec: $(groups "$OUT/grid-c2-$dec.txt") ${SECONDS}s"
done
grep -q "^test result: ok" "$OUT/grid-c2-streamk.txt" || { finish; exit 1; }
bench main-vs-cublas --check sample --shapes .gpu/shapes/kalign-19d.txt
for s in kalign-19d under-wave; do
    DEEPGEMM_CLUSTER=2 timeout 200 "$B" --sweep --no-cublas --check sample --iters 20 --warmup 3 --shapes .gpu/shapes/$s.txt >"$OUT/sweep-c2-$s.txt" 2>&1
    echo "== sweep c2 $s rc=$? ${SECONDS}s"
done
alternate 1 --no-cublas --check none --layout TT --shapes .gpu/shapes/random-k8.txt
finish
