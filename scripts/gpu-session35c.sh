#!/usr/bin/env bash
# Session 35, call c (~5 min): the final planner (SWAP_MARGIN_ALIKE: a 5% swap margin for TN
# problems whose D both ways and the transposed tile take the TMA store) on the final kernels
# (SM90_FLAG_D_BOXES), against main at the session's start (6b21a14, .gpu/old).
#   1. The gpu_matmul grid on the final planner. Predicted: all pass.
#   2. The 16 TN moves (moved-35-swap-tn), two rounds. Predicted ~0.97 of old's time (35b:
#      0.969 against the D_BOXES build), 14336x1024x4096 ~0.91.
#   3. PyTorch's prefill linears (prefill-34, no bias), one round: only 14336x1024x4096 moves.
#     here:  CUBINS=all bash scripts/gpu-pack.sh; bash scripts/gpu-pack-old.sh 6b21a14
#     there: bash scripts/gpu-session35c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
# The old kernels these shapes' old plans take.
precompile_old tn_m128n128k64_s6_c1x1,tn_m128n128k64_s6_c2x1,tn_m128n128k64_s7_c1x1_re,tn_m128n176k64_s5_c1x1,tn_m128n176k64_s5_c2x1,tn_m128n192k64_s4_c1x1,tn_m128n216k64_s5_c1x1_re,tn_m128n224k64_s4_c2x1,tn_m128n232k64_s4_c1x1,tn_m128n240k64_s4_c2x1,tn_m128n256k64_s4_c1x1,tn_m128n64k64_s7_c1x1_ks2,tn_m128n64k64_s8_c1x1,tn_m128n64k64_s8_c1x2,tn_m128n96k64_s6_c1x2
grid grid 200
finish
pair sw 2 --shapes scripts/shapes/moved-35-swap-tn.txt
finish
pair pf 1 --shapes scripts/shapes/prefill-34.txt --iters 20
finish
