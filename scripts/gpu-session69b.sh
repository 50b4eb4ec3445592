#!/usr/bin/env bash
# Session 69, second call (~5 min): why the general set's mid-sector shapes lose (69a's run of
# general-63-aligned on the H100: k = 8 mod 16 0.880x cuBLASLt over 28 TN shapes, 0.960 at other
# sector offsets, 0.965 at k = 0 mod 64; worst 6240x752x4600 0.74, 928x4032x1224 0.74,
# 264x3848x2088 0.77, 552x648x5416 0.78, 352x1112x1976 0.80). Nsight Compute on both libraries'
# kernels at those shapes and at k + 8 (aligned to 16): kernel, launch shape, time, L2 requests.
# Predicted: cuBLASLt's kernels at k = 8 mod 16 make far fewer L2 requests a CTA than deepgemm's
# (session 67's 5888x280x5640: 37.7k against 69.8k) through larger tiles or multicast, and its
# time moves little between k and k + 8 while deepgemm's moves 10-25%. Then every candidate of
# general-63-aligned timed (TN, NN). The kernels carried (CUBINS: the candidates' names).
#     here:  CUBINS="$(cat names)" bash scripts/gpu-pack.sh; rm -rf .gpu/tests      there: timeout 590 bash scripts/gpu-session69b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
M='gpu__time_duration.sum,lts__t_requests.sum,lts__t_sectors.sum,regex:sm__pipe_tensor_op_.*_cycles_active.avg.pct_of_peak_sustained_elapsed'
for s in ${SHAPES:-6240x752x4600 6240x752x4608 928x4032x1224 928x4032x1232 264x3848x2088 264x3848x2096 552x648x5416 552x648x5424 352x1112x1976 352x1112x1984}; do
    timeout 60 "$NCU" --clock-control none -k "regex:dg_sm90|nvjet|gemm|xmma|splitK" --section LaunchStats --metrics "$M" \
        "$B" --layout TN --shape $s --iters 1 --warmup 0 --check none >"$OUT/ncu-$s.txt" 2>&1
    echo "=== ncu TN $s rc=$? ${SECONDS}s"
    grep -E "^  [a-zA-Z_].*\(|gpu__time|lts__t_|sm__pipe|Cluster Size|Grid Size|Registers Per|Dynamic Shared|Block Size" "$OUT/ncu-$s.txt" | grep -v "Cluster Scheduling" | sed -e 's/  */ /g' | cut -c1-140
done
# Every heuristic candidate of the general set's aligned shapes, TN and NN, interleaved with
# cuBLASLt: how far the first plan runs from the fastest candidate (scripts/sweep-regret.py) and
# the fastest from cuBLASLt, by where k's lines start.
for l in ${SWEEP_LAYOUTS-TN NN}; do
    sweep gen-$l 100 --interleave --layout $l --shapes .gpu/shapes/general-63-aligned.txt
done
finish
