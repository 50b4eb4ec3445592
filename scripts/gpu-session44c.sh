#!/usr/bin/env bash
# Session 44, calls c and d (~1 min each): scripts/probes/tma-ingest.cu, TMA's bytes a cycle into one SM
# from L2 by tile, ring depth and cluster (no arithmetic). Needs no pack beyond the repo.
#     there: bash scripts/gpu-session44c.sh
set -uo pipefail
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
/usr/local/cuda/bin/nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I kernels scripts/probes/tma-ingest.cu -lcuda \
    -o /tmp/tma-ingest 2>&1 | grep -v "Remark\|^ *\^\|^$" | head -20
timeout 300 /tmp/tma-ingest 2>&1 | tee "$OUT/tma-ingest.txt"
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.draw --format=csv | tee -a "$OUT/tma-ingest.txt"
