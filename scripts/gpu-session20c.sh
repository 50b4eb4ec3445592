#!/usr/bin/env bash
# Prepared in session 19, not yet run: the general sets against cuBLASLt at main's plans after
# session 19 (Stream-K over clusters moved 31 shape-layouts and the clusters' start charge 16 TT
# plans; session 18's TT random-k8 figure, 0.845, predates both, and no set was re-measured whole).
#   random-k8 in every layout and under-wave in TN, deepgemm against cuBLASLt, twice.
#   Predicted: TN 0.89-0.90, NN 0.90-0.91, TT 0.87-0.89, NT ~0.88; under-wave TN 0.84-0.85.
#     here:  bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session20c.sh (.gpu carried, ~250 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
for r in 1 2; do
    for l in TN NN TT NT; do
        bench rk8-$l-$r --check sample --layout $l --shapes .gpu/shapes/random-k8.txt
    done
    bench uw-TN-$r --check sample --shapes .gpu/shapes/under-wave.txt
done
finish
