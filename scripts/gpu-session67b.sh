#!/usr/bin/env bash
# Session 67 (~3 min): which kernels cuBLASLt runs on the general TN shapes (session 63's fresh
# set, 48 shapes, m, n, k multiples of 8) and how long each library's kernel takes alone
# (Nsight Compute: gpu__time_duration, launch shape), to see which tile shapes deepgemm lacks
# where it loses (67a: 5888x280 TN on cuBLASLt's 192x72 in 1 x 2, 124 CTAs, against
# deepgemm's 92 tiles of 128x144). Predicted: 192-row or 256-row tiles and 1 x 2 clusters
# (A multicast) among cuBLASLt's picks on the shapes deepgemm loses by 15% or more.
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests      there: timeout 590 bash scripts/gpu-session67b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for l in ${LAYOUTS:-TN}; do
    timeout 400 "$NCU" --clock-control none -k "regex:dg_sm90|dg_portable|dg_pack|nvjet|gemm|xmma|splitK|reduce" --section LaunchStats --metrics gpu__time_duration.sum \
        "$B" --layout $l --shapes .gpu/shapes/general-63-aligned.txt --iters 1 --warmup 0 --check none >"$OUT/ncu-gen-$l.txt" 2>&1
    echo "=== ncu $l rc=$? ${SECONDS}s"
    grep -E "^  [a-zA-Z_].*\(|gpu__time|Cluster Size|^[0-9]+x[0-9]+x[0-9]+ " "$OUT/ncu-gen-$l.txt" | sed -e 's/  */ /g' | cut -c1-110 | head -400
done
finish
