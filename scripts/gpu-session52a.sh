#!/usr/bin/env bash
# Prepared in session 52 (no GPU lent), one call (~1 min): scripts/probes/tma-phase.cu. Can TMA
# read a K-major operand at an odd leading dimension or a misaligned base where it is, through
# one tensor map a row phase, instead of packing it (issue 4: 4095³ at 74% of 4096³'s rate, the
# packs ~46 us of its 236)? First the copy checks (unaligned start coordinates, zero fill past
# k, fp32, overlapping rows), then the ingest of phase boxes against the kernel's one-box
# stage. Predictions in the probe's header. Needs no pack beyond the repo.
#     there: bash scripts/gpu-session52a.sh
set -uo pipefail
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
/usr/local/cuda/bin/nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I kernels -I scripts/probes \
    scripts/probes/tma-phase.cu -lcuda -o /tmp/tma-phase 2>&1 | grep -v "Remark\|^ *\^\|^$" | head -20
timeout 240 /tmp/tma-phase 2>&1 | tee "$OUT/tma-phase.txt"
echo "== tma-phase rc=${PIPESTATUS[0]} ${SECONDS}s"
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.draw --format=csv | tee -a "$OUT/tma-phase.txt"
