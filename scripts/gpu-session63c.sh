#!/usr/bin/env bash
# NOT RUN: session 63's device refused its starts; what this asked went into gpu-session63d.sh
# (which ran) and gpu-session63e.sh (owed).
# Session 63, second call (~8 min). 1. scripts/gpu-session63a.sh (the tf32 split rule out of
# sample). 2. Where main stands on shapes no issue names (last measured in session 40: random-21d
# TN 0.884x cuBLASLt, NT 0.868x): 48 fresh shapes with m, n, k log-uniform in [128, 8192],
# multiples of 8, bf16 in every layout, and 40 with any m, n, k (tight leading dimensions, so
# odd ones are packed) in TN and NN; the bench's checks on, cuBLASLt in each run.
# Predicted: aligned 0.93-0.97x cuBLASLt by layout (sessions 41-62 took their moves to
# 0.91-0.98 of their time), ragged TN 1.0-1.5x (cuBLASLt's own cliffs on odd leading dimensions).
#     here:  bash scripts/gpu-pack.sh; find .gpu/tests -type f -delete
#     there: timeout 590 bash scripts/gpu-session63c.sh
# Score:  python3 scripts/compare-runs.py DIR 'on-*' 'def-*'; the general sets' ratio lines.
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
precompile_all
timeout 300 bash "$(dirname "$0")/gpu-session63a.sh"
for l in TN NN NT TT; do
    bench gen-$l --layout $l --shapes .gpu/shapes/general-63-aligned.txt
done
for l in TN NN; do
    bench rag-$l --layout $l --shapes .gpu/shapes/general-63-ragged.txt
done
bench tiny-TN --layout TN --shapes .gpu/shapes/tiny-63.txt
bench tiny-NN --layout NN --shapes .gpu/shapes/tiny-63.txt
# tf32 NT at odd leading dimensions (127x4095x4096 0.56x cuBLASLt: two copies ahead of the
# GEMM): the portable mma.sync kernel reads both in place; is it faster there?
bench odd-tf32-NT --dtype tf32 --layout NT --shapes .gpu/shapes/oddld-63.txt
DEEPGEMM_KERNELS=portable bench odd-tf32-NT-portable --dtype tf32 --layout NT --shapes .gpu/shapes/oddld-63.txt
DEEPGEMM_KERNELS=portable bench odd-bf16-NT-portable --layout NT --shapes .gpu/shapes/oddld-63.txt
bench odd-bf16-NT --layout NT --shapes .gpu/shapes/oddld-63.txt
finish
