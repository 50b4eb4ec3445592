#!/usr/bin/env bash
# Session 69 (~3 min, what was left of its device time): (1) the tile-form probe
# (scripts/probes/tile-forms.cu: the mainloops of 256 x 128 and of 192-row tiles whose two
# consumer warpgroups split the columns, against deepgemm's 128 x 256 and 128 x 192; L2-resident
# operands, aligned and mid-sector pitch); (2) what's left of 69b: Nsight Compute on both
# libraries at the general set's worst mid-sector shapes, as time allows.
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests      there: timeout 280 bash scripts/gpu-session69c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$NVCC" -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I kernels -I scripts/probes \
    scripts/probes/tile-forms.cu -lcuda -o /tmp/tile-forms 2>&1 | grep -v "^$" | tail -5
timeout 60 /tmp/tile-forms 2>&1 | tee "$OUT/tile-forms.txt"
echo "=== probe rc=$? ${SECONDS}s"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
M='gpu__time_duration.sum,lts__t_requests.sum,regex:sm__pipe_tensor_op_.*_cycles_active.avg.pct_of_peak_sustained_elapsed'
for s in ${SHAPES:-6240x752x4600 928x4032x1224 264x3848x2088 552x648x5416}; do
    [ $((${UNTIL:-250} - SECONDS)) -gt 25 ] || break
    timeout 40 "$NCU" --clock-control none -k "regex:dg_sm90|nvjet|gemm|xmma|splitK" --section LaunchStats --metrics "$M" \
        "$B" --layout TN --shape $s --iters 1 --warmup 0 --check none >"$OUT/ncu-$s.txt" 2>&1
    echo "=== ncu TN $s rc=$? ${SECONDS}s"
    grep -E "^  [a-zA-Z_].*\(|gpu__time|lts__t_|sm__pipe|Cluster Size|Grid Size|Registers Per|Dynamic Shared|Block Size" "$OUT/ncu-$s.txt" | grep -v "Cluster Scheduling" | sed -e 's/  */ /g' | cut -c1-140
done
finish
