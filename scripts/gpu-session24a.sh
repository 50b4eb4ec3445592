#!/usr/bin/env bash
# Prepared in session 23, not yet run (~200 s): the figures session 23 measured only at its
# starting kernels (`23a`, `4e9d043`), again at main's kernels against cuBLASLt (random-k8 NN and
# TT, the small-N set TN), and the four losers of `22d` swept with up to 32 candidates in each
# layout (the model's 8, as `23a`) and, TN, on 128x64, 128x96 and 128x128 alone (every split of
# each, as `22c`), for a refit of the 64-wide splits' charge.
#   Predicted: NN 0.91-0.93, TT 0.89-0.90, small-N 1.05-1.07 (session 23's kernel changes took
#   small launches to ~0.97 of their time; these sets are mostly larger launches).
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session24a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
bench random-k8-nn --layout NN --shapes .gpu/shapes/random-k8.txt --check sample
bench random-k8-tt --layout TT --shapes .gpu/shapes/random-k8.txt --check sample
bench small-n-tn --shapes .gpu/shapes/small-n.txt --check sample
for l in TN NN TT NT; do
    timeout 100 "$B" --sweep --no-cublas --check none --iters 20 --warmup 3 --layout $l \
        --shapes .gpu/shapes/losers-22d.txt >"$OUT/sweep-losers-$l.txt" 2>&1
    echo "== sweep losers $l rc=$? ${SECONDS}s"
done
for w in 64k64_s8 96k64_s6 128k64_s6; do
    DEEPGEMM_VARIANT=m128n${w}_c1x1 timeout 100 "$B" --sweep --no-cublas --check none --iters 20 --warmup 3 \
        --shapes .gpu/shapes/losers-22d.txt >"$OUT/sweep-losers-tn-n${w%%k*}.txt" 2>&1
    echo "== sweep losers n${w%%k*} rc=$? ${SECONDS}s"
done
finish
