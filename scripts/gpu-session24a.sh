#!/usr/bin/env bash
# Prepared in session 23, not yet run (~200 s): scripts/gpu-session23a.sh again at main's kernels
# (23a ran at session 23's starting kernels, `4e9d043`): random-k8 NN and TT and the small-N set
# TN against cuBLASLt, and `22d`'s four losers swept in each layout (the model's 8 candidates);
# then, TN, those four on 128x64, 128x96 and 128x128 alone (every split of each, as `22c`), for a
# refit of the 64-wide splits' charge.
#   Predicted: NN 0.91-0.93, TT 0.89-0.90, small-N 1.05-1.07 (session 23's kernel changes took
#   small launches to ~0.97 of their time; these sets are mostly larger launches).
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session24a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
mkdir -p "$OUT/a"
OUT=$OUT/a bash "$(dirname "$0")/gpu-session23a.sh"
for w in 64k64_s8 96k64_s6 128k64_s6; do
    DEEPGEMM_VARIANT=m128n${w}_c1x1 timeout 100 "$B" --sweep --no-cublas --check none --iters 20 --warmup 3 \
        --shapes .gpu/shapes/losers-22d.txt >"$OUT/sweep-losers-tn-n${w%%k*}.txt" 2>&1
    echo "== sweep losers n${w%%k*} rc=$? ${SECONDS}s"
done
finish
