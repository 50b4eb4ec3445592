#!/usr/bin/env bash
# Session 25 (~120 s), main's build (dc2fac1). Issue 4's wave squares again, three rounds:
# Stream-K against data-parallel on 128x256 and 128x248 (forced), and the model's own plans.
# `25e` (one run): 3200^2 1.111 on 128x256 and 1.112 on 128x248 (session 16: 1.097 on
# 128x248), 1664^2 1.039 and 1.106; 2176^2's data-parallel 128x152 plan 125.3 us against
# 111.8-113.4 for every Stream-K plan timed (session 16: 114.4).
#   Predicted: 3200^2 1.10-1.12 on both, round to round within ~1%; 2176^2's plan 114-126 us
#   (session 16 measured it varying 9%).
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session25h.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile m128n256k64_s4_c1x1,m128n248k64_s4_c1x1,m128n152k64_s5_c1x1,m128n128k64_s6_c1x1,m128n168k64_s6_c1x1_re >/dev/null; echo "precompile ${SECONDS}s"
for r in 1 2 3; do
    for v in m128n256k64_s4_c1x1 m128n248k64_s4_c1x1; do
        for dec in dp streamk; do
            DEEPGEMM_VARIANT=$v DEEPGEMM_DECOMPOSITION=$dec bench "sq-$v-$dec-$r" --no-cublas --check none --shapes .gpu/shapes/waves-squares.txt
        done
    done
    bench "sq-main-$r" --no-cublas --check none --shapes .gpu/shapes/waves-squares.txt
done
finish
