#!/usr/bin/env bash
# Session 22, main after the cost-model change (cc00c6e): the general sets against cuBLASLt, TN,
# one run each: small-m (issue 4's small-M set: its table dates from session 13), random-21d,
# random-k8, under-wave. Only the variants these plans use are precompiled (listed from
# `deepgemm-bench --plans` here).
#   Predicted: random-21d 0.837 -> 0.86-0.88 (25 TN moves, its worst shapes among them);
#   random-k8 and under-wave within 1% of session 21 (2 and 3 moves); small-M 1.00-1.05.
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session22e.sh (~300 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile dg_sm90_bf16_bf16_tn_m128n112k64_s6_c1x1,dg_sm90_bf16_bf16_tn_m128n128k64_s6_c1x1,dg_sm90_bf16_bf16_tn_m128n128k64_s6_c2x1,dg_sm90_bf16_bf16_tn_m128n128k64_s6_c2x2,dg_sm90_bf16_bf16_tn_m128n128k64_s7_c1x1_re,dg_sm90_bf16_bf16_tn_m128n136k64_s5_c1x1,dg_sm90_bf16_bf16_tn_m128n144k64_s5_c1x1,dg_sm90_bf16_bf16_tn_m128n144k64_s5_c2x1,dg_sm90_bf16_bf16_tn_m128n152k64_s5_c1x1,dg_sm90_bf16_bf16_tn_m128n152k64_s6_c1x1_re,dg_sm90_bf16_bf16_tn_m128n160k64_s5_c1x1,dg_sm90_bf16_bf16_tn_m128n160k64_s5_c2x1,dg_sm90_bf16_bf16_tn_m128n160k64_s6_c1x1_re,dg_sm90_bf16_bf16_tn_m128n168k64_s5_c1x1,dg_sm90_bf16_bf16_tn_m128n16k64_s11_c1x1,dg_sm90_bf16_bf16_tn_m128n176k64_s5_c1x1,dg_sm90_bf16_bf16_tn_m128n176k64_s5_c2x1,dg_sm90_bf16_bf16_tn_m128n184k64_s4_c1x1,dg_sm90_bf16_bf16_tn_m128n192k64_s4_c1x1,dg_sm90_bf16_bf16_tn_m128n192k64_s4_c2x1,dg_sm90_bf16_bf16_tn_m128n200k64_s4_c1x1,dg_sm90_bf16_bf16_tn_m128n208k64_s4_c2x1,dg_sm90_bf16_bf16_tn_m128n224k64_s4_c1x1,dg_sm90_bf16_bf16_tn_m128n224k64_s4_c2x1,dg_sm90_bf16_bf16_tn_m128n224k64_s5_c1x1_re,dg_sm90_bf16_bf16_tn_m128n232k64_s4_c1x1,dg_sm90_bf16_bf16_tn_m128n240k64_s4_c2x1,dg_sm90_bf16_bf16_tn_m128n248k64_s4_c1x1,dg_sm90_bf16_bf16_tn_m128n256k64_s4_c1x1,dg_sm90_bf16_bf16_tn_m128n256k64_s4_c2x1,dg_sm90_bf16_bf16_tn_m128n32k64_s10_c1x1,dg_sm90_bf16_bf16_tn_m128n32k64_s10_c1x1_ks2,dg_sm90_bf16_bf16_tn_m128n64k64_s7_c1x1_ks2,dg_sm90_bf16_bf16_tn_m128n64k64_s8_c1x1,dg_sm90_bf16_bf16_tn_m128n64k64_s8_c1x2,dg_sm90_bf16_bf16_tn_m128n64k64_s8_c1x4,dg_sm90_bf16_bf16_tn_m128n64k64_s9_c1x1_re,dg_sm90_bf16_bf16_tn_m128n96k64_s6_c1x1,dg_sm90_bf16_bf16_tn_m128n96k64_s6_c1x2,dg_sm90_bf16_bf16_tn_m128n96k64_s6_c1x4,dg_sm90_bf16_bf16_tn_m128n96k64_s8_c1x1_re >/dev/null; echo "precompile ${SECONDS}s"
for s in small-m random-21d random-k8 under-wave; do
    bench $s-tn --shapes .gpu/shapes/$s.txt --check sample
done
finish
