#!/usr/bin/env bash
# Prepared in session 22, not yet run (~250 s): the figures session 22 deleted because plans
# moved under them, at main's plans, against cuBLASLt (one run each): random-k8 NN and TT, and
# the small-N set TN; then every candidate of `22d`'s worst moves swept in their layouts
# (416x568x8000 in every layout, 192x576x12072, 352x1888x5904 TT, 128x24576x1536 TT/NT), to
# refit the narrow-split charge against the wider tiles' even splits it displaced there.
#   Predicted: random-k8 NN ~0.91, TT ~0.885 (one plan of 40 moved, 5-7% faster); small-N
#   1.03-1.06 (11 of 40 moved).
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session23a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
bench random-k8-nn --layout NN --shapes .gpu/shapes/random-k8.txt --check sample
bench random-k8-tt --layout TT --shapes .gpu/shapes/random-k8.txt --check sample
bench small-n-tn --shapes .gpu/shapes/small-n.txt --check sample
for l in TN NN TT NT; do
    timeout 100 "$B" --sweep --no-cublas --check none --iters 20 --warmup 3 --layout $l \
        --shape 416x568x8000 --shape 192x576x12072 --shape 352x1888x5904 --shape 128x24576x1536 \
        >"$OUT/sweep-losers-$l.txt" 2>&1
    echo "== sweep losers $l rc=$? ${SECONDS}s"
done
finish
