#!/usr/bin/env bash
# Session 64, last call (~3 min; what device time was left): the packed-or-portable line with
# a call's copies overlapped (plan::pack PACK_OVERLAPPED_LAUNCH_S: each copy after the first
# charged 1 us of launch, not 3, as `64a` measured ~2 us less a packed call). It moves 99³,
# 100³, 110x618x121, 2279x136x131, 48x200x77, 64x1000x99, 1000x64x99 (TN; NN where both
# operands are copied) from the portable kernel onto packed copies; the others of
# tiny-odd-64.txt stay. Timed: the default (the new plans) against DEEPGEMM_KERNELS=portable,
# same build, alternating, two rounds, checks on. Predicted: the moved shapes 0.80-0.90 of the
# portable time (99³ ~11 us against 12.7), 17x33x65 and 64x64x63 (left portable) 1.0-1.2 had
# they moved.
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 280 bash scripts/gpu-session64c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
"$B" --precompile "bf16_bf16_tn_m128n32k128_s5_c1x1,bf16_bf16_nn_m128n32k128_s5_c1x1,bf16_bf16_tn_m128n64k64_s8_c1x1,bf16_bf16_nn_m128n64k64_s8_c1x1,bf16_bf16_tn_m128n128k64_s6_c1x1,bf16_bf16_nn_m128n128k64_s6_c1x1,bf16_bf16_tn_m64n128k64_s8_c1x1,bf16_bf16_nn_m64n128k64_s8_c1x1" >/dev/null
echo "precompile ${SECONDS}s"
S=.gpu/shapes/tiny-odd-64.txt
for r in 1 2; do
    for l in TN NN; do
        bench ${l}_def-$r --layout $l --shapes $S --iters 30
        DEEPGEMM_KERNELS=portable bench ${l}_port-$r --layout $l --shapes $S --iters 30
    done
done
finish
