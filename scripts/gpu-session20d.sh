#!/usr/bin/env bash
# Prepared in session 19, not yet run: does the L2-request bound scale with the CTAs issuing?
# `19e` found unclustered launches under a wave with rows off the sectors 33-40% over the model
# (1984x456x3704 on 80 CTAs of 128x96: 27.9 us against 20.9) while clustered ones were within
# 7%; scaling the request time by SMs / CTAs offline was mixed (session 19 note). This times one
# tile (128x256, data-parallel, unclustered and in clusters of 2) over 8-128 CTAs with k on and
# off the lines (scripts/shapes/request-rate-20d.txt).
#   Predicted: if requests are bounded per SM, time(8200) / time(8192) stays ~1.4 at every CTA
#   count unclustered; if globally, it falls towards 1.0 as the CTAs drop below ~60.
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session20d.sh (~120 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_CACHE_DIR=$DEEPGEMM_CACHE_DIR "$B" --precompile m128n256k64_s4 >/dev/null; echo "precompile ${SECONDS}s"
for c in 1 2; do
    for r in 1 2; do
        DEEPGEMM_VARIANT=m128n256k64_s4_c${c}x1 DEEPGEMM_DECOMPOSITION=dp bench c$c-$r --no-cublas --check none --shapes .gpu/shapes/request-rate-20d.txt
    done
done
finish
