#!/usr/bin/env bash
# Session 65 (~1.5 min): the session-65 pays gate (plan::pack HOPPER_MIN_S 3 us, SHORT_D_S) on
# tf32, out of sample (its sets were bf16): every tf32 TN / NN shape-layout of a fresh set
# (scripts/shapes/small-odd-65i-tf32.txt) it moves off the portable kernel (moved-65i-*.txt),
# this build against 5b0b05a's bench (.gpu/old), two rounds, cuBLASLt in each run. Predicted
# 0.85-0.95 of the time, as bf16's.
#     here:  bash scripts/gpu-pack.sh; mkdir -p .gpu/old; cp OLD_BENCH .gpu/old/
#     there: timeout 300 bash scripts/gpu-session65i.sh
# Score:  for l in TN NN; do python3 scripts/compare-runs.py DIR "${l}_new-*" "${l}_old-*"; done
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
"$B" --precompile "sm90_f32_f32_nn_m128n64k32_s8_c1x1,sm90_f32_f32_tn_m128n32k32_s10_c1x1,sm90_f32_f32_tn_m64n64k64_s6_c1x1_w1" >/dev/null; echo "precompile ${SECONDS}s"
LAYOUTS="TN NN" alternate_moved 2 moved-65i --dtype tf32
finish
