#!/usr/bin/env bash
# Session 65 (~2 min): a second out of sample for HOPPER_MIN_S 3 us + SHORT_D_S (plan::pack's pays
# gate, fitted on 65a-65c): every shape-layout of a fresh set (scripts/shapes/small-odd-65d.txt)
# it moves off the portable kernel (moved-65d-*.txt, plan-diff against 5b0b05a), this build
# against 5b0b05a's bench (.gpu/old), two rounds, cuBLASLt in each run. Predicted: 0.90-0.94
# of the time by layout, nothing past 1.10 but at k < 32.
#     here:  bash scripts/gpu-pack.sh; mkdir -p .gpu/old; cp OLD_BENCH .gpu/old/
#     there: timeout 400 bash scripts/gpu-session65d.sh
# Score:  for l in TN NN NT TT; do python3 scripts/compare-runs.py DIR "${l}_new-*" "${l}_old-*"; done
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
"$B" --precompile "sm90_bf16_bf16_nn_m128n32k128_s5_c1x1,sm90_bf16_bf16_nn_m128n64k64_s8_c1x1,sm90_bf16_bf16_nn_m64n128k64_s8_c1x1,sm90_bf16_bf16_nn_m64n64k128_s6_c1x1_w1,sm90_bf16_bf16_nt_m128n64k64_s8_c1x1,sm90_bf16_bf16_nt_m64n128k64_s8_c1x1,sm90_bf16_bf16_nt_m64n64k128_s6_c1x1_w1,sm90_bf16_bf16_tn_m128n32k128_s5_c1x1,sm90_bf16_bf16_tn_m128n64k64_s8_c1x1,sm90_bf16_bf16_tn_m64n128k64_s8_c1x1,sm90_bf16_bf16_tn_m64n64k128_s6_c1x1_w1,sm90_bf16_bf16_tt_m128n64k64_s8_c1x1,sm90_bf16_bf16_tt_m64n64k128_s6_c1x1_w1" >/dev/null; echo "precompile ${SECONDS}s"
alternate_moved 2 moved-65d
finish
