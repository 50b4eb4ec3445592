#!/usr/bin/env bash
# Session 17's discovery runs (at main 117dee7, before the L2-request model): a TMA operand whose
# row pitch is an odd multiple of 16 bytes (a 16-bit leading dimension of 8 mod 16) made
# launches 1.6x slower; the L2 request counts (Nsight Compute) and the clusters of 2 that halve
# B's requests. Reruns them with the packed bench (pass B=... for another build).
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session17-pitch.sh  (.gpu carried, ~90 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
run() {
    local l=$1; shift
    for s in "$@"; do
        timeout 60 "$B" --check sample --iters 20 --warmup 5 --layout "$l" --shape "$s" >"$OUT/t.txt" 2>&1
        echo "$l $s ${DEEPGEMM_CLUSTER:+c=$DEEPGEMM_CLUSTER }$(grep -E '^[0-9]+x' "$OUT/t.txt" | awk '{print $5, $7, $9}') $(grep -oE 'dg_sm90[^ ,)]*' "$OUT/t.txt" | head -1)"
    done
}
# K from 8192 in steps of 8: the pitch mod 128 bytes runs 0, 16, 32, ... 112, 0.
run TN 2048x2048x8192 2048x2048x8200 2048x2048x8208 2048x2048x8216 2048x2048x8224 2048x2048x8232 2048x2048x8240 2048x2048x8248 2048x2048x8256
run TN 1040x4141x8344 1040x4141x8320 1040x4141x8352 4096x4096x4104 4096x4096x4096
# Only B's pitch off (NN: A M-major, ld = m), only A's (m = 2056), both MN-major (NT).
run NN 2048x2048x8200 2056x2048x8192 1000x3000x4000
run NT 2056x2048x8192 2056x2056x8192
# Clusters of 2 (B multicast) on the same shapes.
DEEPGEMM_CLUSTER=2 run TN 2048x2048x8200 4096x4096x4104
DEEPGEMM_CLUSTER=2 run NN 2048x2048x8200 1000x3000x4000
# L2 requests and sectors, deepgemm's kernel and cuBLASLt's, aligned and not.
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for s in 2048x2048x8192 2048x2048x8200; do
    echo "=== ncu $s"
    "$NCU" --clock-control none --metrics gpu__time_duration.sum,lts__t_sectors.sum,lts__t_requests.sum,l1tex__m_xbar2l1tex_read_sectors.sum \
        "$B" --shape $s --iters 1 --warmup 0 --check none 2>&1 |
        grep -E "^\s+[a-zA-Z_].*\(|gpu__time|lts__|l1tex" | grep -v -i "memset\|fill" | sed -e 's/  */ /g' | cut -c1-160
done
finish
