#!/usr/bin/env bash
# Session 67 (~6 min): what cuBLASLt does on lines that start mid-sector (a 16-bit K-major
# operand with k = 8 mod 16; session 63: deepgemm 0.873x cuBLASLt there in TN against 0.966x at
# k = 0 mod 16; "what cuBLASLt does on such lines (not profiled here)" was left by session 64).
# (1) Nsight Compute on both libraries' kernels, aligned against mid-sector k on three TN shape
# pairs: time, L2 requests and sectors, tensor-pipe activity, launch shape (grid, cluster,
# shared memory). Predicted: cuBLASLt's kernel at mid-sector k makes about as many L2 requests a
# byte as deepgemm's clustered one (session 17: 8.9M against deepgemm c2x1's ~similar) and is
# paced by something else; if its requests a byte are far fewer, it loads differently.
# (2) The ingest probe (scripts/probes/pitch-ingest.cu, PROBE_FORMS=1): TMA's ingest at pitch
# 8192 / 8208 under each L2 promotion and with a flat (k, row) map. Predicted: mid-sector ~1.5x
# the aligned cycles whatever the form and promotion (the requests follow the addresses).
# (3) Every candidate timed with cuBLASLt interleaved on two mid-sector shapes.
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests      there: timeout 590 bash scripts/gpu-session67a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
M='gpu__time_duration.sum,lts__t_requests.sum,lts__t_sectors.sum,dram__bytes_read.sum,regex:sm__pipe_tensor_op_.*_cycles_active.avg.pct_of_peak_sustained_elapsed'
for s in 2048x2048x8192 2048x2048x8200 4096x4096x4096 4096x4096x4104 5888x280x5632 5888x280x5640; do
    timeout 90 "$NCU" --clock-control none -k "regex:dg_sm90|nvjet|gemm|xmma" --section LaunchStats --metrics "$M" \
        "$B" --layout TN --shape $s --iters 1 --warmup 0 --check none >"$OUT/ncu-$s.txt" 2>&1
    echo "=== ncu TN $s rc=$? ${SECONDS}s"
    grep -E "^  [a-zA-Z_].*\(|gpu__time|lts__t_|dram__bytes|sm__pipe|Cluster Size|Grid Size|Registers Per|Dynamic Shared|Block Size" "$OUT/ncu-$s.txt" | grep -v "Cluster Scheduling" | sed -e 's/  */ /g' | cut -c1-140
done
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
    NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    "$NVCC" -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I kernels -I scripts/probes scripts/probes/pitch-ingest.cu -lcuda -o /tmp/pitch-probe 2>&1 | tail -3
    PROBE_FORMS=1 timeout 120 /tmp/pitch-probe 2>&1 | tee "$OUT/probe-forms.txt"
    echo "=== probe rc=$? ${SECONDS}s"
fi
for s in 2048x2048x8200 4096x4096x4104; do
    sweep tn-$s 100 --interleave --layout TN --shape $s
    grep -E "sweep #|cuBLASLt" "$OUT/sweep-tn-$s.txt" | sed -e 's/dg_sm90_bf16_bf16_tn_//' | head -8 | cut -c1-150
done
bench mid-tn --layout TN $(for s in 2048x2048x8192 2048x2048x8200 4096x4096x4096 4096x4096x4104 5888x280x5632 5888x280x5640; do echo --shape $s; done)
finish
