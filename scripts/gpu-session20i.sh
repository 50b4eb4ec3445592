#!/usr/bin/env bash
# Session 20: where a small launch's fixed cost goes. Under a wave the smallest shapes run at
# 0.71-0.75x cuBLASLt (`20h`: 496x376x1360 11.3 us against 8.3, 336x1912x1544 15.2 against
# 10.8), and every candidate of 496x376x1360 measured ~11 us where the model has 4.7-8
# (`20b`'s sweep): a cost no plan avoids. Session 6 placed ~5,000 SM cycles of it inside the
# kernel (1x64x64) but not their cause. Nsight Compute (caches flushed before each kernel, as
# the bench's L2 flush) on deepgemm's kernel and cuBLASLt's for three small shapes: duration,
# active cycles, instructions, and the warp-state (stall) counters by reason — "no
# instruction" would be instruction-cache misses (a 159 KB kernel, 9,950 instructions, at
# 128x128), "long scoreboard"/"barrier"/"sleeping" the first loads' latency.
#   Predicted: deepgemm 2-4 us longer per kernel; the extra stalls mostly the mbarrier waits
#   for the first TMA loads, some no-instruction at the start and in the epilogue.
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session20i.sh (~150 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
M=gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_active.max,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active
one() { # label kernel-regex bench-args...
    local label=$1 k=$2; shift 2
    timeout 120 "$NCU" --clock-control none -k "regex:$k" -c 1 --section WarpStateStats --metrics "$M" --page raw \
        .gpu/deepgemm-bench "$@" --iters 1 --warmup 0 --check none >"$OUT/ncu-$label.txt" 2>&1
    echo "-- $label rc=$? ${SECONDS}s"
    grep -E "gpu__time_duration.sum|sm__cycles_active|smsp__inst_executed.sum |stalled_(no_instruction|long_scoreboard|barrier|sleeping|wait|membar|branch_resolving|short_scoreboard|math_pipe_throttle|lg_throttle|dispatch_stall|drain|misc|mio_throttle|imc_miss|tex_throttle|selected|not_selected)[a-z_]*\.(ratio|sum) " "$OUT/ncu-$label.txt" | sed -e 's/  */ /g' | head -40
}
for s in 128x128x128 496x376x1360 1x4096x4096; do
    one dg-$s dg_sm90 --shape $s --no-cublas
    one lt-$s 'nvjet|gemm|Kernel' --shape $s
done
finish
