#!/usr/bin/env bash
# Diagnostics for the next steps (session 5): Nsight Compute on deepgemm's and cuBLASLt's
# kernels side by side, without the bench's L2 flush: the tensor pipes' active fraction (how
# much of the time the wgmma pipe works: the per-tile overhead question of set A), DRAM and L2
# traffic (the N-major-B question at 1000x3000x4000, the decode question at 64x4096x4096).
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-diag5.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
M='gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_op_read.sum,lts__t_requests_op_read.sum,lts__t_sector_hit_rate.pct,sm__throughput.avg.pct_of_peak_sustained_elapsed,regex:sm__pipe_tensor_op_.*_cycles_active.avg.pct_of_peak_sustained_elapsed'
one() { # kernel-regex label bench-args...
    local k=$1 label=$2; shift 2
    echo "-- $label"
    "$NCU" --clock-control none -k "regex:$k" -c 1 --metrics "$M" .gpu/deepgemm-bench "$@" --iters 1 --warmup 0 --check none 2>&1 |
        grep -E "gpu__time|dram__bytes|lts__t_sec|lts__t_req|sm__throughput|sm__pipe" | sed -e 's/  */ /g'
}
one dg_sm90 "deepgemm 4096^3 TN" --shape 4096x4096x4096 --no-cublas
one nvjet "cuBLASLt 4096^3 TN" --shape 4096x4096x4096
one dg_sm90 "deepgemm 4096x24576x1536 TN" --shape 4096x24576x1536 --no-cublas
one dg_sm90 "deepgemm 64x4096x4096 TN" --shape 64x4096x4096 --no-cublas
one nvjet "cuBLASLt 64x4096x4096 TN" --shape 64x4096x4096
one dg_sm90 "deepgemm TT 1000x3000x4000 c2x1 (rank 0)" --layout TT --shape 1000x3000x4000 --no-cublas
one dg_sm90 "deepgemm TT 1000x3000x4000 c1x1 (rank 1)" --layout TT --shape 1000x3000x4000 --no-cublas --algo-index 1
one dg_sm90 "deepgemm TN 1000x3000x4000 c1x1" --shape 1000x3000x4000 --no-cublas
one nvjet "cuBLASLt TN 1000x3000x4000" --shape 1000x3000x4000
