#!/usr/bin/env bash
# Prepared in session 50 for the next GPU session (two calls, ~7 + ~6 min): what session 50's GELU change
# (kernels/sm90/epilogue.cuh `gelu_tanh_16bit`, 6 FP32 operations) owes.
#   1. The GELU checks 50f was cut off before: TT fp16 and NT (bf16, fp16; GELU, GELU + bias),
#      full float64 reference to 1024³, sample and cuBLASLt above. Predicted: all PASS.
#   2. Set A's plain launches against `a172e77` (the build before), deepgemm alone, two
#      rounds alternating: every 16-bit kernel's source changed in its GELU branch (session 52's
#      producer shifts were taken out again in session 53), so predicted 0.995-1.005.
#   3. (`grid`, the second call) The whole gpu_matmul grid (its `epilogues`, `odd_d_in_place` and `tiles_past_the_edges`
#      groups take GELU on every layout). Predicted: all pass.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh a172e77
#     there: timeout 580 bash scripts/gpu-session51a.sh checks|grid; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
if [ "${1:-checks}" = grid ]; then
    grid grid-51a $((570 - SECONDS))
    exit
fi
gelu_checks TT NT
finish
precompile_old bf16_bf16_tn_m128n256k64_s4_c1x1,bf16_bf16_tn_m128n176k64_s5_c1x1,bf16_bf16_tn_m128n240k64_s4_c1x1
A="--no-cublas --iters 30 --warmup 5 --check none --shapes .gpu/shapes/set-a.txt"
for r in 1 2; do
    bench new-$r $A
    bench_old old-$r $A
done
