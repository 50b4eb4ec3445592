#!/usr/bin/env bash
# Session 21, part 4 (out of sample): streamk::cluster_n_pays was fitted on `21b`/`21c`'s
# timings (clusters along n planned only 64+ wide, on 2+ tile rows of 4+ tile columns,
# data-parallel, 1 x 2 up to 64 k-iterations). Here 120 fresh random shapes
# (scripts/shapes/random-21d.txt), of which 22 shape-layouts move against 8f19ac3
# (moved-21d-{tn,nn,tt,nt}.txt), alternating three times, cuBLASLt alongside.
#   Predicted: geomean 0.90-0.97 of the old time (in sample 0.909); a few 1 x 2 above 1.0
#   (21c's NN 880x1608x1688 1.06, NT 1984x456x3704 1.04); none above 1.10.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh 8f19ac3
#     there: bash scripts/gpu-session21d.sh (~200 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
K=dg_sm90_bf16_bf16_nn_m128n112k64_s6_c1x1,dg_sm90_bf16_bf16_nn_m128n128k64_s6_c1x1,dg_sm90_bf16_bf16_nn_m128n64k64_s8_c1x1,dg_sm90_bf16_bf16_nn_m128n64k64_s8_c1x2,dg_sm90_bf16_bf16_nn_m128n96k64_s6_c1x1,dg_sm90_bf16_bf16_nn_m128n96k64_s6_c1x2,dg_sm90_bf16_bf16_nt_m128n64k64_s8_c1x1,dg_sm90_bf16_bf16_nt_m128n64k64_s8_c1x2,dg_sm90_bf16_bf16_tn_m128n112k64_s6_c1x1,dg_sm90_bf16_bf16_tn_m128n112k64_s7_c1x1_re,dg_sm90_bf16_bf16_tn_m128n128k64_s6_c1x1,dg_sm90_bf16_bf16_tn_m128n128k64_s6_c2x1,dg_sm90_bf16_bf16_tn_m128n176k64_s5_c2x1,dg_sm90_bf16_bf16_tn_m128n64k64_s8_c1x2,dg_sm90_bf16_bf16_tn_m128n64k64_s8_c1x4,dg_sm90_bf16_bf16_tn_m128n96k64_s6_c1x1,dg_sm90_bf16_bf16_tn_m128n96k64_s6_c1x2,dg_sm90_bf16_bf16_tn_m128n96k64_s6_c1x4,dg_sm90_bf16_bf16_tn_m128n96k64_s8_c1x1_re,dg_sm90_bf16_bf16_tt_m128n64k64_s8_c1x2,dg_sm90_bf16_bf16_tt_m128n64k64_s8_c1x4
"$B" --precompile "$K" >/dev/null; echo "precompile ${SECONDS}s"
precompile_old "$K"
alternate_moved 3 moved-21d --check sample
finish
