#!/usr/bin/env bash
# Session 48, call a (~6 min): where the large shapes' time goes, from the candidates alone.
# (1) Every default candidate of 47 large TN shapes (big-48a: random-21d's 17 with >= 4M
# outputs, and 30 fresh ones of seed 4848, scripts/shapes/large-48.txt) timed with cuBLASLt in
# the run; (2) the same shapes' data-parallel + Stream-K hybrids only
# (DEEPGEMM_DECOMPOSITION=hybrid: the model ranks them 1.2-1.4x the data-parallel plans
# there; never measured on most of them); (3) tf32 8192^3 / 4096^3 TN and NN, every candidate.
# Predicted: (2) the hybrids of 128 x 232-256 within 5% of the best data-parallel plan where
# the last wave is under half full (4080x2056x5064's 288 tiles), i.e. the model overcharges
# their fixup there; (3) some candidate within 1% of the first.
#     there: timeout 560 bash scripts/gpu-session48a.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile "$(paste -sd, .gpu/shapes/kernels-48a.txt)" >/dev/null
echo "precompile ${SECONDS}s"
sweep big-default 200 --shapes .gpu/shapes/big-48a.txt
DEEPGEMM_DECOMPOSITION=hybrid sweep big-hybrid 150 --shapes .gpu/shapes/big-48a.txt --no-cublas
for l in TN NN; do
    sweep tf32-$l 60 --dtype tf32 --layout $l --shape 8192x8192x8192 --shape 4096x4096x4096
done
grep -E "^ratio" "$OUT"/sweep-*.txt
