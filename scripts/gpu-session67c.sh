#!/usr/bin/env bash
# Session 67 (~3 min): a one-wave data-parallel launch bound by its busiest CTA's own L2
# requests (`DEEPGEMM_ONEWAVE_REQUESTS=SCALE`, src/plan/streamk.rs: k-iterations x the CTA's
# requests a k-iteration / (L2_REQUESTS_PER_S / 132 x SCALE), only where every tile is one
# CTA's, k >= 64 iterations, m and n >= 256). 67a: 5888x280x5640 TN on 92 tiles of 128x144
# made 69.8k L2 requests a CTA in 70.6 us (~1.0G a second a CTA) where cuBLASLt's 124 CTAs
# made 37.7k each; session 64's bound on every launch (DEEPGEMM_SM_REQUESTS) lost on small and
# multi-wave launches, and on 64b's timings this narrower form scored TN 0.972 (13 moves), NN
# 0.993 (11), TT 0.934 (3) in sample. Out of sample here: 400 fresh shapes (m, n in 256-8192,
# m n <= 5M, k 4096-16384, multiples of 8), the 118 shape-layouts scale 1.0 moves and the 26
# scale 1.2 moves (scripts/shapes/onewave-67-SCALE-LAYOUT.txt), on against off in one build,
# alternating twice. Predicted 0.95-0.99 of the time by layout; the default only if a scale's
# moves come to <= 0.98 with no layout over 1.0.
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests      there: timeout 590 bash scripts/gpu-session67c.sh
# Score: python3 scripts/compare-runs.py DIR 's1.0-TN_on-*' 's1.0-TN_off-*' (each scale, layout).
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
"$B" --precompile "$(cat .gpu/shapes/onewave-67-kernels.txt)" >/dev/null
echo "precompile ${SECONDS}s"
for r in 1 2; do
    for sc in 1.0 1.2; do
        for l in TN NN TT NT; do
            f=.gpu/shapes/onewave-67-$sc-$(echo $l | tr A-Z a-z).txt
            [ -s $f ] || continue
            [ $((560 - SECONDS)) -gt 20 ] || break 3
            bench s$sc-${l}_off-$r --layout $l --shapes $f --check none --no-cublas --iters 30 >/dev/null
            DEEPGEMM_ONEWAVE_REQUESTS=$sc bench s$sc-${l}_on-$r --layout $l --shapes $f --check none --no-cublas --iters 30 >/dev/null
        done
    done
    echo "round $r ${SECONDS}s"
done
for sc in 1.0 1.2; do
    for l in TN NN TT NT; do
        python3 scripts/compare-runs.py "$OUT" "s$sc-${l}_on-*" "s$sc-${l}_off-*" 2>/dev/null | tail -3 | sed "s/^/$sc $l: /"
    done
done
finish
