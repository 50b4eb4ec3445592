#!/usr/bin/env bash
# Session 47, call f (~3 min): every full-ring solo 64x128 schedule (`k128_s4_c1x1_w1`, split
# ones listed under DEEPGEMM_SOLO_SK=1) swept on small-mn-long-k, under-wave and random-21d TN
# (seed 47, as 47b's 64x64 sweep), the default plans of the same build (main, ef0df3f) in the
# same call. Predicted: ahead of the split 64x64 where n pads little to 128 and the 64x64 tiles
# are 37-64 (the band 47b left a toss-up), 0.95-1.0 of the default plan's time there.
#     here: bash scripts/gpu-pack.sh
#     there: timeout 280 bash scripts/gpu-session47f.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile "k128_s4_c1x1_w1,$(cat scripts/shapes/kernels-47e.txt)" >/dev/null
echo "precompile ${SECONDS}s"
solo() { export DEEPGEMM_SOLO=1 DEEPGEMM_DEEP=1 DEEPGEMM_SOLO_SK=1 DEEPGEMM_VARIANT=k128_s4_c1x1_w1; }
for s in small-mn-long-k under-wave; do
    (solo; sweep $s-solo128-sk 40 --layout TN --shapes .gpu/shapes/$s.txt --seed 47)
    bench $s-default --layout TN --shapes .gpu/shapes/$s.txt --seed 47 --check none >/dev/null
done
(solo; sweep random-21d-solo128-sk 70 --layout TN --shapes .gpu/shapes/random-21d.txt --seed 47)
bench random-21d-default --layout TN --shapes .gpu/shapes/random-21d.txt --seed 47 --check none >/dev/null
echo "done ${SECONDS}s"
