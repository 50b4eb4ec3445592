#!/usr/bin/env bash
# Session 20, part 3: (1) TT 296x1224x11176, whose plan moved once more when clusters of 2 x 2
# lost the even-split charge (now nn 128x128 c2x1+swap+sk15x60; 6b7cb37 ran tt 128x192
# sk21x105 at 37.8 us), against 6b7cb37, alternating twice; (2) the general sets, random-k8 in every layout and
# under-wave TN, against cuBLASLt, twice, at this commit's plans (session 18's TT figure predates sessions 19-20).
#   Predicted: (1) 34-38 us; (2) TN 0.89-0.90, NN 0.90-0.91, TT 0.87-0.89, NT ~0.88,
#   under-wave TN 0.85-0.87.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh 6b7cb37
#     there: bash scripts/gpu-session20h.sh (~280 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
alternate_layouts 2 "TT" --check sample --shape 296x1224x11176 --shape 504x808x10584
precompile_all
for r in 1 2; do
    for l in TN NN TT NT; do
        bench rk8-$l-$r --check sample --layout $l --shapes .gpu/shapes/random-k8.txt
    done
    bench uw-TN-$r --check sample --shapes .gpu/shapes/under-wave.txt
done
finish
