#!/usr/bin/env bash
# Prepared in session 48 for the next GPU session (~1 min, no pack needed):
# scripts/probes/pitch-ingest.cu, TMA's and a cp.async producer's ingest into shared memory at
# row pitches that put K-major lines on, or 16 bytes into, the L2's 32-byte sectors (the
# k = 8 mod 16 shapes, 0.885x cuBLASLt on random-21d's large TN ones against 0.954x). Its
# device code compiled here with NVRTC (scripts/probes/nvrtc-check.py: 24 / 72 registers, no
# spills); the host code has not been compiled yet.
#     there: bash scripts/gpu-session49b.sh
set -uo pipefail
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
/usr/local/cuda/bin/nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I kernels -I scripts/probes \
    scripts/probes/pitch-ingest.cu -lcuda -o /tmp/pitch-ingest 2>&1 | grep -v "Remark\|^ *\^\|^$" | head -20
timeout 300 /tmp/pitch-ingest 2>&1 | tee "$OUT/pitch-ingest.txt"
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.draw --format=csv | tee -a "$OUT/pitch-ingest.txt"
