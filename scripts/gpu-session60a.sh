#!/usr/bin/env bash
# Session 60, first call (~3-4 min): session 59's prepared 59f (why even splits over clusters
# of 2 x 1 slow past ~48 clusters: resident clusters, CTA count, or the register-A kernel; see
# scripts/gpu-session59f.sh), then the wave set on the 128 x 128 tile, which 59c did not run:
# 1664² is 91 tiles of 128 x 256 (under a wave, nothing to quantise) but 169 of 128 x 128
# (132 + 37), 2176² 289 (2 x 132 + 25), 3200² 625 (4 x 132 + 97). Predicted: Stream-K >= 1.25x
# data-parallel at 1664² and 2176² on 128 x 128, ~1.1 at 3200².
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests
#     there: timeout 500 bash scripts/gpu-session60a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S="--shape 536x232x13832 --shape 600x240x16144 --shape 1000x344x11120"
DEEPGEMM_LOG_LEVEL=3 "$B" --dtype tf32 --layout NN --shape 536x232x13832 --iters 2 --warmup 1 \
    --check none >"$OUT/hints.txt" 2>&1
grep -m3 "resident" "$OUT/hints.txt"
DEEPGEMM_VARIANT=m128n128k32_s6_c2x1 sweep c2x1-tf32 60 --interleave --iters 12 --dtype tf32 --layout NN $S
DEEPGEMM_VARIANT=m128n128k32_s6_c1x1 sweep c1x1-tf32 60 --interleave --iters 12 --dtype tf32 --layout NN $S
DEEPGEMM_VARIANT=m128n128k64_s6_c2x1 sweep c2x1-bf16 60 --interleave --iters 12 --layout TN $S
DEEPGEMM_VARIANT=m128n128k64_s6_c1x1 sweep c1x1-bf16 60 --interleave --iters 12 --layout TN $S
W="--shape 1664x1664x8192 --shape 2176x2176x8192 --shape 3200x3200x8192"
for r in 1 2; do
    for dec in dp streamk hybrid; do
        DEEPGEMM_VARIANT=m128n128k64_s6_c1x1 DEEPGEMM_DECOMPOSITION=$dec bench "w-m128n128k64_s6_c1x1-$dec-$r" \
            --no-cublas --check none --iters 20 $W
    done
done
python3 "$(dirname "$0")/waves-table.py" "$OUT"
finish
