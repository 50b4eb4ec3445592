#!/usr/bin/env bash
# Session 21, part 5: the general sets against cuBLASLt at main's final plans (clusters along n
# planned under streamk::cluster_n_pays): random-k8 in every layout, under-wave TN, and the 120
# fresh random shapes of random-21d TN (none in another set).
#   Predicted (session 20 at 86b50ec: TN 0.900, NN 0.906, TT 0.886, NT 0.880, under-wave 0.851):
#   TN ~0.91 (5 of 40 moved, 21c ran this set at 0.912), NN ~0.91 (2 moved), TT and NT unchanged
#   (no plan moved), under-wave ~0.86 (21c: 0.864), random-21d 0.85-0.92.
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session21e.sh (~300 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
for l in TN NN TT NT; do
    bench random-k8-$l --layout $l --check sample --shapes .gpu/shapes/random-k8.txt
done
bench under-wave-TN --check sample --shapes .gpu/shapes/under-wave.txt
bench random-21d-TN --check sample --shapes .gpu/shapes/random-21d.txt
finish
