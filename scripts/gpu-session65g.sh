#!/usr/bin/env bash
# Session 65 (~2 min): out of sample for SHORT_D_STORED_ROWS (plan::pack: a D of under 24 rows
# charged SHORT_D_S even when aligned; 65f had m = 8 / 16 1.13 / 1.03 of the portable time, 24-56
# 0.86-0.93): every shape-layout of a fresh set (scripts/shapes/small-odd-65g.txt) it moves off
# the portable kernel (moved-65g-*.txt: m of 24-56, D aligned), this build against 5b0b05a's
# bench (.gpu/old), two rounds, cuBLASLt in each run. Predicted: 0.86-0.93 of the time by layout,
# nothing past 1.10.
#     here:  bash scripts/gpu-pack.sh; mkdir -p .gpu/old; cp OLD_BENCH .gpu/old/
#     there: timeout 400 bash scripts/gpu-session65g.sh
# Score:  for l in TN NN NT TT; do python3 scripts/compare-runs.py DIR "${l}_new-*" "${l}_old-*"; done
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
"$B" --precompile "sm90_bf16_bf16_nn_m128n128k64_s6_c1x1,sm90_bf16_bf16_nt_m128n128k64_s6_c2x2,sm90_bf16_bf16_tn_m128n128k64_s6_c1x1,sm90_bf16_bf16_tt_m128n128k64_s6_c1x1" >/dev/null; echo "precompile ${SECONDS}s"
alternate_moved 2 moved-65g
finish
