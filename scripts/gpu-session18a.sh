#!/usr/bin/env bash
# Session 18, main: data for the general shapes, before choosing what to build.
#   1. DEEPGEMM_L2_PROMOTION none/64/128/256 on shapes whose lines start mid-sector (and one
#      aligned): does a smaller L2 promotion cut the L2 requests' cost?
#      Predicted: aligned unchanged; mid-sector shapes within 5% (requests, not DRAM fills,
#      bind; promotion acts on fills).
#   2. under-wave.txt and random-k8.txt against cuBLASLt at main, per shape (session 17 kept
#      only the geomeans).
#   3. Every candidate of the under-wave shapes timed against its estimate (--sweep).
#   4. What cuBLASLt launches on the under-wave shapes (Nsight Compute: kernel, grid, cluster,
#      L2 requests) and how many clusters of 2 the device holds.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session18a.sh (.gpu carried, ~400 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
P="--shape 2048x2048x8192 --shape 2048x2048x8200 --shape 4096x4096x4104 --shape 496x1000x11400 --shape 296x1224x11176 --shape 1528x896x14568"
for r in 1 2; do
    for pr in 256 none 64 128; do
        DEEPGEMM_L2_PROMOTION=$pr bench promo-$pr-$r --no-cublas --check none --iters 30 $P
    done
done
bench uw-vs-cublas --check sample --shapes .gpu/shapes/under-wave.txt
bench rk8-vs-cublas --check sample --shapes .gpu/shapes/random-k8.txt
timeout 200 "$B" --sweep --no-cublas --check none --iters 20 --warmup 3 --shapes .gpu/shapes/under-wave.txt >"$OUT/sweep.txt" 2>&1
echo "== sweep rc=$? ${SECONDS}s"
grep -E "^[0-9]+x[0-9]+x[0-9]+ |sweep #" "$OUT/sweep.txt" | sed -e 's/(vs the timed.*//' -e 's/dg_sm90_bf16_bf16_tn_//' | grep -v portable | cut -c1-110
DEEPGEMM_LOG_LEVEL=3 timeout 30 "$B" --no-cublas --check none --iters 2 --warmup 0 --shape 2048x2048x8200 --shape 1000x3000x4000 2>&1 | grep -m4 resident
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
timeout 240 "$NCU" --clock-control none --metrics gpu__time_duration.sum,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y,lts__t_requests.sum \
    "$B" --shapes .gpu/shapes/under-wave.txt --iters 1 --warmup 0 --check none >"$OUT/ncu.txt" 2>&1
echo "== ncu rc=$? ${SECONDS}s"
grep -E "^\s+[a-zA-Z_].*\(|gpu__time|launch__|lts__" "$OUT/ncu.txt" | grep -v -i "memset\|fill_\|flush" | sed -e 's/  */ /g' | cut -c1-130 | head -400
finish
