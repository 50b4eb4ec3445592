#!/usr/bin/env bash
# GPU call: a quick Stream-K check after a fixup change: forced Stream-K and split-K on the
# gpu_matmul groups that split tiles and need no packing, the wave set timed under forced
# Stream-K, and Nsight Compute on one Stream-K launch.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-sk-quick.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
SECONDS=0
T=.gpu/tests/gpu_matmul
DEEPGEMM_DECOMPOSITION=streamk timeout 120 $T --ignored --test-threads=1 --nocapture ${SK_GROUPS:-repeated narrow alpha_beta epilogues} >"$OUT/m-sk.txt" 2>&1
echo "streamk rc=$? ${SECONDS}s: $(groups "$OUT/m-sk.txt")"
DEEPGEMM_DECOMPOSITION=splitk timeout 90 $T --ignored --test-threads=1 --nocapture ${SPLIT_GROUPS:-narrow alpha_beta repeated} >"$OUT/m-split.txt" 2>&1
echo "splitk rc=$? ${SECONDS}s: $(groups "$OUT/m-split.txt")"
DEEPGEMM_DECOMPOSITION=streamk .gpu/deepgemm-bench --shapes .gpu/shapes/waves.txt --sweep --iters 20 --warmup 3 --check none >"$OUT/sweep.txt" 2>&1
grep -E "^[0-9]+x[0-9]+x[0-9]+ " "$OUT/sweep.txt"
CASES="${CASES:-streamk 1664x1664x8192 1;streamk 3200x3200x8192 0}" bash scripts/gpu-ncu-small.sh
