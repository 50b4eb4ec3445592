#!/usr/bin/env bash
# Short GPU call: the cluster-of-2 variants' resident-cluster count and speed against the
# unclustered kernel (DEEPGEMM_CLUSTER=1 / 2), and their gpu_matmul correctness.
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
B=.gpu/deepgemm-bench
SHAPES="--shape 4096x4096x4096 --shape 8192x8192x8192 --shape 4096x2112x7168 --shape 8192x8192x1024 --shape 4096x28672x8192"
DEEPGEMM_LOG_LEVEL=3 DEEPGEMM_CLUSTER=2 $B --shape 4096x4096x4096 --iters 2 --warmup 0 --no-cublas 2>&1 | grep -E "clusters of" | head -2
for c in 1 2; do echo "== DEEPGEMM_CLUSTER=$c"; DEEPGEMM_CLUSTER=$c $B $SHAPES --check none 2>&1 | grep -E "^[0-9]+x"; done
DEEPGEMM_CLUSTER=2 timeout 120 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture large epilogues alpha_beta repeated 2>&1 | grep -E "^group.*passed|FAIL" | head
