#!/usr/bin/env bash
# Prepared in session 60 (~4 min): the tf32 solo tiles under the 16-bit solo rules
# (DEEPGEMM_SOLO_TF32=1: plan::solo_for_short and plan::solo_split_for_few_tiles take tf32 TN
# first plans too) against the default plans, same build, alternating, two rounds, cuBLASLt
# in each run, on the 124 kept-set TN shapes the switch moves (scripts/shapes/tf32-solo-61.txt;
# out of sample: 60f swept five others). Predicted from 60f (H100: 0.83-0.84 of the time on
# the two shapes of <= 36 tiles of 64x64, as session 47's bf16 rule): 0.90-0.95 of the time by
# geomean, losers on the shortest k and the fewest tiles. Merge (make the switch the default)
# only if the geomean is under 0.97 with no loser past 1.15.
# (The configured-algo test and the solo correctness grid: scripts/gpu-session61b.sh.)
#     here:  bash scripts/gpu-pack.sh; find .gpu/tests -type f ! -name gpu_matmul -delete
#     there: timeout 560 bash scripts/gpu-session61a.sh; . scripts/gpu-env.sh; finish
# Score:  python3 scripts/compare-runs.py DIR 'solo-*' 'base-*'
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile dg_sm90_f32_f32_tn_m128n128k32_s6_c1x1,dg_sm90_f32_f32_tn_m128n128k32_s6_c2x1,dg_sm90_f32_f32_tn_m128n16k32_s11_c1x1,dg_sm90_f32_f32_tn_m128n32k32_s10_c1x1,dg_sm90_f32_f32_tn_m128n32k32_s10_c1x1_ks2,dg_sm90_f32_f32_tn_m128n64k32_s8_c1x1,dg_sm90_f32_f32_tn_m128n64k32_s8_c1x1_ks2,dg_sm90_f32_f32_tn_m64n64k64_s6_c1x1_w1 >/dev/null; echo "precompile ${SECONDS}s"
S=.gpu/shapes/tf32-solo-61.txt
for r in 1 2; do
    bench base-$r --dtype tf32 --layout TN --shapes $S
    DEEPGEMM_SOLO_TF32=1 bench solo-$r --dtype tf32 --layout TN --shapes $S
done
finish
