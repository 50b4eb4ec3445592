#!/usr/bin/env bash
# Session 62, second call (~5 min). 1. Out of sample: solo_for_short now takes tf32 TN by
# default (plan::solo_tf32; in sample, 61a's 25 such moves ran 0.906 of the time, worst
# 1.144); here on 83 fresh random shapes it moves (scripts/shapes/tf32-short-62.txt), the
# default against DEEPGEMM_SOLO_TF32=0 (the old plans), same build, alternating, two rounds,
# cuBLASLt in each run. Predicted 0.90-0.95 of the time by geomean, none past 1.15; revert
# if the geomean is over 0.97. 2. scripts/gpu-session61c.sh (Nsight Compute: data-parallel,
# hybrid and all-Stream-K past the L2).
#     here:  cargo build --release --bin deepgemm-bench && cp target/release/deepgemm-bench .gpu/
#     there: timeout 590 bash scripts/gpu-session62b.sh
# Score:  python3 scripts/compare-runs.py DIR 'new-*' 'old-*'
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile dg_sm90_f32_f32_tn_m64n64k64_s6_c1x1_w1,dg_sm90_f32_f32_tn_m128n32k32_s10_c1x1,dg_sm90_f32_f32_tn_m128n64k32_s8_c1x1,dg_sm90_f32_f32_tn_m128n16k32_s11_c1x1 >/dev/null; echo "precompile ${SECONDS}s"
S=.gpu/shapes/tf32-short-62.txt
for r in 1 2; do
    DEEPGEMM_SOLO_TF32=0 bench old-$r --dtype tf32 --layout TN --shapes $S
    bench new-$r --dtype tf32 --layout TN --shapes $S
done
finish
timeout $((580 - SECONDS)) bash "$(dirname "$0")/gpu-session61c.sh"
