#!/usr/bin/env bash
# Session 66 (~1.5 min): the one-consumer 64-row tile (solo, `_w1`, forced: DEEPGEMM_SOLO=1
# DEEPGEMM_VARIANT=_w1) against the default plans on problems of at most 64 rows (TN), where
# the default's 128-row tiles load a box half or more past the matrix (66e: a one-tile launch's
# first stage lands ~1,800 cycles after its issue with 64 of 128 rows out, ~1,200 with none).
# 60 shapes of small-m-66.txt with m <= 64 (small-m-66h.txt), two rounds alternating.
# Predicted: 0.95-1.0 of the time at short k; longer k unclear (the solo tile's stages are half
# as wide).
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests     there: timeout 300 bash scripts/gpu-session66h.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
S=.gpu/shapes/small-m-66h.txt
for r in 1 2; do
    bench def-$r --shapes $S
    DEEPGEMM_SOLO=1 DEEPGEMM_VARIANT=_w1 bench solo-$r --shapes $S
done
finish
