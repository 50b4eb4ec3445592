#!/usr/bin/env bash
# Session 44, calls e and f (~1 min each): scripts/probes/mainloop.cu, the sm90 mainloop alone (TMA ring +
# wgmma consumers, no epilogue) on L2-resident operands: cycles a k-step with loads and
# tensor cores together, each alone. Needs no pack beyond the repo.
#     there: bash scripts/gpu-session44e.sh
set -uo pipefail
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
/usr/local/cuda/bin/nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I kernels scripts/probes/mainloop.cu -lcuda \
    -o /tmp/mainloop 2>&1 | grep -v "Remark\|^ *\^\|^$" | head -20
timeout 300 /tmp/mainloop 2>&1 | tee "$OUT/mainloop.txt"
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.draw --format=csv | tee -a "$OUT/mainloop.txt"
