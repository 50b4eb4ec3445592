#!/usr/bin/env bash
# Session 66 (~4 min): the half-empty charge's 1 MiB gate (streamk NARROW_HALF_EMPTY_MIN_B_BYTES)
# out of sample: 160 shape-layouts it moves (40 a layout drawn from 396) of 160 fresh small-m
# shapes (scripts/shapes/small-m-66.txt: m 1-64, n x k under 1M elements), this build against
# b0ac25d's bench (.gpu/old; the same kernels, so one kernel cache), two rounds, cuBLASLt in
# each run. Predicted: 0.95-1.0 of the time where k is short (pure launch latency), 0.85-0.95
# where k is 512+; nothing past 1.10.
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests; mkdir -p .gpu/old
#            cp <b0ac25d's target/release/deepgemm-bench> .gpu/old/
#     there: timeout 590 bash scripts/gpu-session66c.sh
# Score:  for l in TN NN NT TT; do python3 scripts/compare-runs.py DIR "${l}_new-*" "${l}_old-*"; done
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OLD_CACHE=$DEEPGEMM_CACHE_DIR
nvidia-smi -L
"$B" --precompile "sm90_bf16_bf16_nn_m128n128k64_s6_c1x1,sm90_bf16_bf16_nn_m128n16k128_s5_c1x1,sm90_bf16_bf16_nn_m128n16k64_s11_c1x1_ks2,sm90_bf16_bf16_nn_m128n32k128_s5_c1x1,sm90_bf16_bf16_nn_m128n64k64_s8_c1x1,sm90_bf16_bf16_nt_m128n128k64_s6_c1x1,sm90_bf16_bf16_nt_m128n128k64_s6_c2x2,sm90_bf16_bf16_nt_m128n64k64_s7_c1x1_ks2,sm90_bf16_bf16_nt_m128n64k64_s8_c1x1,sm90_bf16_bf16_tn_m128n128k64_s6_c1x1,sm90_bf16_bf16_tn_m128n16k128_s5_c1x1,sm90_bf16_bf16_tn_m128n16k64_s11_c1x1_ks2,sm90_bf16_bf16_tn_m128n32k128_s5_c1x1,sm90_bf16_bf16_tn_m128n64k64_s8_c1x1,sm90_bf16_bf16_tt_m128n128k64_s6_c1x1,sm90_bf16_bf16_tt_m128n64k64_s7_c1x1_ks2,sm90_bf16_bf16_tt_m128n64k64_s8_c1x1" >/dev/null; echo "precompile ${SECONDS}s"
alternate_moved 2 moved-66n
finish
