#!/usr/bin/env bash
# GPU call for the register-A tf32 path (NN fp32 with COMPUTE_32F_FAST_TF32): the direct
# kernel cases of the NN tf32 variants against the reference, the gpu_matmul groups that run
# tf32 in every transpose, then NN and TN tf32 timed against cuBLASLt.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-tf32nn.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
SECONDS=0
DEEPGEMM_SM90_VARIANTS=f32_f32_nn timeout 120 .gpu/tests/nvrtc_sm90 --ignored --nocapture --test-threads=1 sm90_kernel_matches_reference_on_gpu >"$OUT/sm90.txt" 2>&1
echo "nvrtc_sm90 nn rc=$? ${SECONDS}s: $(grep -E 'test result|cases$' "$OUT/sm90.txt" | tr '\n' ' ')"
grep -E "max scaled" "$OUT/sm90.txt" | head -20 | cut -c1-170
timeout 150 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture ${GROUPS_TF32:-shapes_types large} >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
B=.gpu/deepgemm-bench
for l in NN TN; do
    $B --dtype tf32 --out fp32 --layout $l --shape 4096x4096x4096 --shape 8192x8192x8192 --shape 2048x2048x2048 >"$OUT/bench-$l.txt" 2>&1
    grep -E "^[0-9]+x|^ratio|^\[" "$OUT/bench-$l.txt" | cut -c1-180
done
echo "done ${SECONDS}s"
