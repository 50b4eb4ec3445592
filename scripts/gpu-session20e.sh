#!/usr/bin/env bash
# Session 20: how many clusters of 2 x 2 the H200 holds at once (`20b`: 2048x2048x8200 on
# 128x256 c2x2 ran 167.9 us against 91.9 on c2x1, 4096^3 210 against 174 — as if a quarter of
# the 33 clusters the planner assumes could not start: GPCs whose TPC count is odd leave SMs
# idle in clusters of 4); then the request rate against the CTAs issuing (session 19's
# hypothesis: L2 requests bounded per SM), scripts/shapes/request-rate-20d.txt: if per SM,
# time(8200) / time(8192) stays ~1.4 at every CTA count unclustered; if global, it falls towards
# 1.0 below ~60 CTAs.
#   Predicted: clusters of 2 resident 66; clusters of 4 ~28-32 (not 33).
#     here:  bash scripts/gpu-pack.sh (as run: 6b7cb37 with the 2 x 2 patch since merged)
#     there: bash scripts/gpu-session20e.sh (~150 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
for v in m128n256k64_s4_c2x2:4 m128n128k64_s6_c2x2:4 m128n256k64_s4_c2x1:2 m128n128k64_s6_c2x1:2 m128n64k64_s8_c1x1_ks2:; do
    DEEPGEMM_LOG_LEVEL=3 DEEPGEMM_CLUSTER=${v#*:} DEEPGEMM_VARIANT=${v%:*} timeout 60 "$B" --no-cublas --check none --iters 3 --warmup 1 --shape 2048x2048x8192 >"$OUT/resident-${v%:*}.txt" 2>&1
    echo "${v%:*}: $(grep -o '[0-9]* clusters of [0-9]* ([0-9]* resident at most; [0-9]* CTAs planned)' "$OUT/resident-${v%:*}.txt" | sort -u | tr '\n' ' ')"
done
DEEPGEMM_CACHE_DIR=$DEEPGEMM_CACHE_DIR "$B" --precompile m128n256k64_s4 >/dev/null; echo "precompile ${SECONDS}s"
for c in 1 2; do
    for r in 1 2; do
        DEEPGEMM_VARIANT=m128n256k64_s4_c${c}x1 DEEPGEMM_DECOMPOSITION=dp bench c$c-$r --no-cublas --check none --shapes .gpu/shapes/request-rate-20d.txt
    done
done
finish
