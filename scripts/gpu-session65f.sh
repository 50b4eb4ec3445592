#!/usr/bin/env bash
# Session 65 (~2 min): out of sample for SHORT_D_S's condition on D's layout (plan::pack: the
# 2 us charge only where D cannot take the TMA-store epilogue; 65e's H100 sweep had m = 48 and 64
# with an aligned D packed 0.86 / 0.85 of the portable time): every shape-layout of a fresh set
# (scripts/shapes/small-odd-65f.txt: m a multiple of 8 under 64, k odd) it moves off the
# portable kernel (moved-65f-*.txt), this build against 5b0b05a's bench (.gpu/old: the same
# plans there as 37392d8's), two rounds, cuBLASLt in each run. Predicted: 0.85-0.95 of the time
# by layout; m = 8-16 the least sure (up to 1.10).
#     here:  bash scripts/gpu-pack.sh; mkdir -p .gpu/old; cp OLD_BENCH .gpu/old/
#     there: timeout 400 bash scripts/gpu-session65f.sh
# Score:  for l in TN NN NT TT; do python3 scripts/compare-runs.py DIR "${l}_new-*" "${l}_old-*"; done
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
"$B" --precompile "sm90_bf16_bf16_nn_m128n128k64_s6_c1x1,sm90_bf16_bf16_nt_m128n128k64_s6_c2x2,sm90_bf16_bf16_tn_m128n128k64_s6_c1x1,sm90_bf16_bf16_tt_m128n128k64_s6_c1x1" >/dev/null; echo "precompile ${SECONDS}s"
alternate_moved 2 moved-65f
finish
