#!/usr/bin/env bash
# Prepared in session 62 (~3 min): out of sample, the tf32 split rule with its new bound
# (plan::SOLO_SPLIT_TF32_MIN_MN = 136, fitted in sample on 61a: 63 moves 0.957 of the time,
# worst 1.135) on 100 fresh random tf32 TN shapes it moves (scripts/shapes/tf32-split-63.txt):
# DEEPGEMM_SOLO_TF32=1 against the default, same build, alternating, two rounds, cuBLASLt in
# each. Predicted 0.94-0.97 of the time by geomean, none past 1.15. Make it the default
# (plan::solo_tf32: SoloRule::Split => true) only if the geomean is under 0.97 with no loser
# past 1.15.
#     here:  bash scripts/gpu-pack.sh; find .gpu/tests -type f -delete
#     there: timeout 560 bash scripts/gpu-session63a.sh; . scripts/gpu-env.sh; finish
# Score:  python3 scripts/compare-runs.py DIR 'on-*' 'def-*'
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile dg_sm90_f32_f32_tn_m64n64k64_s6_c1x1_w1,dg_sm90_f32_f32_tn_m128n32k32_s10_c1x1,dg_sm90_f32_f32_tn_m128n64k32_s8_c1x1,dg_sm90_f32_f32_tn_m128n16k32_s11_c1x1,dg_sm90_f32_f32_tn_m128n128k32_s6_c1x1 >/dev/null; echo "precompile ${SECONDS}s"
S=.gpu/shapes/tf32-split-63.txt
for r in 1 2; do
    bench def-$r --dtype tf32 --layout TN --shapes $S
    DEEPGEMM_SOLO_TF32=1 bench on-$r --dtype tf32 --layout TN --shapes $S
done
finish
