#!/usr/bin/env bash
# Session 69, last call (~2 min): which kernel cuBLASLt launches on each shape of the general
# set (general-63-aligned, TN; one bench process under Nsight Compute, cuBLASLt's kernels only:
# name, grid, cluster, duration), to see which tile forms (192-row, column-split "coopB", m in
# steps of 8, clusters of 8) cover how much of it. deepgemm's plan for each shape is in 69a's
# gen-TN.txt.
#     here:  bash scripts/gpu-pack.sh (CUBINS from scripts/shapes/names-69b.txt); rm -rf .gpu/tests
#     there: timeout 150 bash scripts/gpu-session69d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
timeout ${NCU_SECS:-120} "$NCU" --clock-control none -k "regex:nvjet|cutlass|gemm|xmma|splitK" --section LaunchStats \
    --metrics gpu__time_duration.sum "$B" --layout TN --shapes .gpu/shapes/${SET:-general-63-aligned}.txt \
    --iters 1 --warmup 0 --check none >"$OUT/ncu-lt.txt" 2>&1
echo "ncu rc=$? ${SECONDS}s"
grep -E "^  [a-zA-Z_].*\(|^\[[0-9]|gpu__time|Cluster Size|Grid Size" "$OUT/ncu-lt.txt" | sed -e 's/  */ /g' | cut -c1-120 | head -300
finish
