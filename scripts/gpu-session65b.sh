#!/usr/bin/env bash
# Session 65 (~3 min): HOPPER_MIN_S 5 -> 3 us (plan::pack's pays gate: the packed side was
# overcharged, `65a`). Every shape-layout it moves (scripts/shapes/moved-65-*.txt: small
# operands TMA cannot read, off the portable kernel onto copies + the Hopper kernel; plan-diff
# against 5b0b05a), this build against 5b0b05a's bench (.gpu/old), two rounds each, cuBLASLt
# in each run. Predicted: 0.80-0.90 of the time by geomean (65a's three: 0.85-0.89); the four
# decode moves (2-4 x 22-24k, NT / TT) unknown, 0.7-0.9.
#     here:  bash scripts/gpu-pack.sh; mkdir -p .gpu/old; cp OLD_BENCH .gpu/old/
#     there: timeout 400 bash scripts/gpu-session65b.sh
# Score:  for l in TN NN NT TT; do python3 scripts/compare-runs.py DIR "${l}_new-*" "${l}_old-*"; done
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
K=sm90_bf16_bf16_nn_m128n128k64_s6_c1x1,sm90_bf16_bf16_nn_m128n32k128_s5_c1x1,sm90_bf16_bf16_nn_m128n64k64_s8_c1x1,sm90_bf16_bf16_nn_m64n128k64_s8_c1x1,sm90_bf16_bf16_nn_m64n64k128_s6_c1x1_w1,sm90_bf16_bf16_nt_m128n128k64_s6_c2x2,sm90_bf16_bf16_nt_m128n192k64_s4_c1x1,sm90_bf16_bf16_nt_m128n64k64_s8_c1x1,sm90_bf16_bf16_nt_m64n128k64_s8_c1x1,sm90_bf16_bf16_nt_m64n64k128_s6_c1x1_w1,sm90_bf16_bf16_tn_m128n128k64_s6_c1x1,sm90_bf16_bf16_tn_m128n32k128_s5_c1x1,sm90_bf16_bf16_tn_m128n64k64_s8_c1x1,sm90_bf16_bf16_tn_m64n128k64_s8_c1x1,sm90_bf16_bf16_tn_m64n64k128_s6_c1x1_w1,sm90_bf16_bf16_tt_m128n128k64_s6_c1x1,sm90_bf16_bf16_tt_m128n192k64_s4_c1x1,sm90_bf16_bf16_tt_m128n64k64_s8_c1x1,sm90_bf16_bf16_tt_m64n64k128_s6_c1x1_w1
"$B" --precompile "$K" >/dev/null; echo "precompile ${SECONDS}s"
alternate_moved 2 moved-65
finish
