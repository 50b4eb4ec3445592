#!/usr/bin/env bash
# Session 66 (~5 min): (1) every candidate of 30 tiny shapes (scripts/shapes/tiny-66.txt), TN
# and NN, the portable kernel included, L2 flushed before each sample and, separately, in chains
# of 8 launches (`--chain 8`: how a small GEMM runs among others, programmatic dependent launch
# on): whether the portable kernel, which has no tensor maps to fetch, starts faster than the
# Hopper kernel on launch-bound shapes (tiny set 0.81-0.93x cuBLASLt since session 32);
# predicted: the Hopper plans ~0.5-1 us behind cuBLASLt flushed, the portable kernel level with
# them or slower, and in chains the Hopper plans ahead. (2) Owed since session 65: its pays gate
# (plan::pack HOPPER_MIN_S, SHORT_D_S) out of sample on fp16 (29 moves of small-odd-66-fp16.txt,
# every layout) and tf32 (54 moves of small-odd-66-tf32.txt: NT / TT for the first time), this
# build against 5b0b05a's bench (.gpu/old), two rounds. Predicted 0.85-0.95 of the time, as
# bf16's and tf32 TN / NN's.
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests; mkdir -p .gpu/old
#            cp <5b0b05a's target/release/deepgemm-bench> .gpu/old/
#     there: timeout 590 bash scripts/gpu-session66b.sh
# Score:  for l in TN NN NT TT; do python3 scripts/compare-runs.py DIR/fp16 "${l}_new-*" "${l}_old-*"; done
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
K="sm90_f16_f16_nn_m128n32k128_s5,sm90_f16_f16_nn_m128n64k64_s8,sm90_f16_f16_nn_m64n128k64_s8,sm90_f16_f16_nn_m64n64k128_s6_c1x1_w1"
K="$K,sm90_f16_f16_nt_m128n64k64_s8,sm90_f16_f16_nt_m64n128k64_s8,sm90_f16_f16_nt_m64n64k128_s6_c1x1_w1"
K="$K,sm90_f16_f16_tn_m128n32k128_s5,sm90_f16_f16_tn_m128n64k64_s8,sm90_f16_f16_tn_m64n128k64_s8,sm90_f16_f16_tn_m64n64k128_s6_c1x1_w1"
K="$K,sm90_f16_f16_tt_m128n64k64_s8,sm90_f16_f16_tt_m64n64k128_s6_c1x1_w1"
K="$K,sm90_f32_f32_nn_m128n64k32_s8,sm90_f32_f32_tn_m128n32k32_s10,sm90_f32_f32_tn_m64n64k64_s6_c1x1_w1"
# The tiny sweeps' candidates (`--plans` of tiny-66.txt in TN and NN).
K="$K,sm90_bf16_bf16_nn_m128n112k64_s6_c1x1,sm90_bf16_bf16_nn_m128n128k64_s6_c1x1,sm90_bf16_bf16_nn_m128n136k64_s5_c1x1,sm90_bf16_bf16_nn_m128n144k64_s5_c1x1,sm90_bf16_bf16_nn_m128n152k64_s5_c1x1,sm90_bf16_bf16_nn_m128n160k64_s5_c1x1,sm90_bf16_bf16_nn_m128n168k64_s5_c1x1,sm90_bf16_bf16_nn_m128n16k128_s5_c1x1,sm90_bf16_bf16_nn_m128n16k64_s11_c1x1_ks2,sm90_bf16_bf16_nn_m128n176k64_s5_c1x1,sm90_bf16_bf16_nn_m128n184k64_s4_c1x1,sm90_bf16_bf16_nn_m128n32k128_s5_c1x1,sm90_bf16_bf16_nn_m128n32k64_s10_c1x1_ks2,sm90_bf16_bf16_nn_m128n64k64_s7_c1x1_ks2,sm90_bf16_bf16_nn_m128n64k64_s8_c1x1,sm90_bf16_bf16_nn_m128n96k64_s6_c1x1,sm90_bf16_bf16_nn_m64n128k64_s8_c1x1,sm90_bf16_bf16_nn_m64n64k128_s6_c1x1_w1,sm90_bf16_bf16_tn_m128n112k64_s6_c1x1,sm90_bf16_bf16_tn_m128n128k64_s6_c1x1,sm90_bf16_bf16_tn_m128n136k64_s5_c1x1,sm90_bf16_bf16_tn_m128n144k64_s5_c1x1,sm90_bf16_bf16_tn_m128n152k64_s5_c1x1,sm90_bf16_bf16_tn_m128n160k64_s5_c1x1,sm90_bf16_bf16_tn_m128n168k64_s5_c1x1,sm90_bf16_bf16_tn_m128n16k128_s5_c1x1,sm90_bf16_bf16_tn_m128n16k64_s11_c1x1_ks2,sm90_bf16_bf16_tn_m128n176k64_s5_c1x1,sm90_bf16_bf16_tn_m128n184k64_s4_c1x1,sm90_bf16_bf16_tn_m128n192k64_s4_c1x1,sm90_bf16_bf16_tn_m128n208k64_s4_c1x1,sm90_bf16_bf16_tn_m128n224k64_s4_c1x1,sm90_bf16_bf16_tn_m128n240k64_s4_c1x1,sm90_bf16_bf16_tn_m128n32k128_s5_c1x1,sm90_bf16_bf16_tn_m128n32k64_s10_c1x1_ks2,sm90_bf16_bf16_tn_m128n64k64_s7_c1x1_ks2,sm90_bf16_bf16_tn_m128n64k64_s8_c1x1,sm90_bf16_bf16_tn_m128n96k64_s6_c1x1,sm90_bf16_bf16_tn_m64n128k64_s8_c1x1,sm90_bf16_bf16_tn_m64n64k128_s6_c1x1_w1,sm90_bf16_bf16_tt_m128n128k64_s6_c1x1,sm90_bf16_bf16_tt_m128n128k64_s6_c2x1,sm90_bf16_bf16_tt_m128n128k64_s6_c2x2,sm90_bf16_bf16_tt_m128n192k64_s4_c1x1,sm90_bf16_bf16_tt_m128n192k64_s4_c2x1,sm90_bf16_bf16_tt_m128n256k64_s4_c1x1,sm90_bf16_bf16_tt_m128n256k64_s4_c2x2,sm90_bf16_bf16_tt_m128n64k64_s7_c1x1_ks2,sm90_bf16_bf16_tt_m128n64k64_s8_c1x1"
"$B" --precompile "$K" >/dev/null; echo "precompile ${SECONDS}s"
T=.gpu/shapes/tiny-66.txt
for l in TN NN; do
    sweep tiny-$l-flushed 60 --layout $l --shapes $T --iters 50
    sweep tiny-$l-chain8 60 --layout $l --shapes $T --iters 50 --chain 8
done
OUT0=$OUT
for d in fp16 tf32; do
    mkdir -p "$OUT0/$d"
    n=$([ $d = fp16 ] && echo 66f || echo 66t)
    OUT=$OUT0/$d alternate_moved 2 moved-$n --dtype $d
done
OUT=$OUT0
finish fp16 tf32
