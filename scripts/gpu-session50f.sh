#!/usr/bin/env bash
# Session 50, call f (~3 min): the TMA-store epilogue's GELU in 6 FP32 operations (no select
# for -inf: x clamped at -16 with NaN kept; `50e` timed a 5-operation form that ptxas spilled
# 16 bytes for: -2.2% on 8192x8192x1024 with a bias, -0.2% on 4096x14336x4096), against
# main `a172e77` (8 operations), deepgemm alone, 3 rounds alternating; then its values on every
# layout, bf16 and fp16, GELU and GELU + bias (full float64 reference up to 1024³, sample and
# cuBLASLt above). Predicted: 8192x8192x1024 ~-2%, 4096x14336x4096 ~-0.2%; every check PASS.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh a172e77 and the CUBINs:
#            gpu-cubins-defines.sh (new bench, .gpu/cubins.txz, "-:" kernels-50f.txt) and
#            (old bench, .gpu/old/cubins.txz, "-:bf16_bf16_tn_m128n256k64_s4_c1x1")
#     there: timeout 300 bash scripts/gpu-session50f.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
A="--no-cublas --iters 30 --warmup 5 --check none --shape 4096x14336x4096 --shape 8192x8192x1024"
for r in 1 2 3; do
    bench new-$r $A --epilogue gelu_bias
    bench_old old-$r $A --epilogue gelu_bias
done
bench plain $A
gelu_checks TN NN TT NT
