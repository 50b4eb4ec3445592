#!/usr/bin/env bash
# Prepared in session 59 (~1-2 min): why do even splits over clusters of 2 x 1 slow down past
# ~48 clusters? `59e` (H100, tf32 NN / TT, scripts/cluster-splits.py): 536x232x13832 on
# 128x128 c2x1 ran 50.7 us over 48 clusters (8 a row pair) and 58.7 over 66 (11), while the
# model, whose split-K charge keeps falling with more contributors, put 66 first (37.9 us
# modelled). Three readings, each with a prediction:
#   (a) the device holds fewer than 66 clusters of 2 and the launch re-deals the units unevenly
#       (then DEEPGEMM_LOG_LEVEL=3's hint line says "N resident at most" with N < 66);
#   (b) it is the CTA count, not clusters: the unclustered 128x128 splits rise past ~96 CTAs too;
#   (c) it is tf32's register-A kernel: bf16 TN's c2x1 splits do not rise.
# Every candidate of one kernel timed interleaved with cuBLASLt (`sweep`), three shapes.
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests
#     there: timeout 300 bash scripts/gpu-session59f.sh
# Read: python3 scripts/cluster-splits.py DIR/sweep-*.txt (the c2x1 ones); the c1x1 sweeps by eye.
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S="--shape 536x232x13832 --shape 600x240x16144 --shape 1000x344x11120"
DEEPGEMM_LOG_LEVEL=3 "$B" --dtype tf32 --layout NN --shape 536x232x13832 --iters 2 --warmup 1 \
    --check none >"$OUT/hints.txt" 2>&1
grep -m3 "resident" "$OUT/hints.txt"
DEEPGEMM_VARIANT=m128n128k32_s6_c2x1 sweep c2x1-tf32 60 --interleave --iters 12 --dtype tf32 --layout NN $S
DEEPGEMM_VARIANT=m128n128k32_s6_c1x1 sweep c1x1-tf32 60 --interleave --iters 12 --dtype tf32 --layout NN $S
DEEPGEMM_VARIANT=m128n128k64_s6_c2x1 sweep c2x1-bf16 60 --interleave --iters 12 --layout TN $S
finish
