#!/usr/bin/env bash
# Session 73, second call (~6 min): why cuBLASLt's 128 x 192 in clusters of 2 x 1 (nvjet
# ..._128x192_64x5_2x1_v_bz_coopB, 128 CTAs, 36.5 us under Nsight Compute on an H100, `72a`)
# leads deepgemm's unclustered 128 x 192 ring-epilogue tile (40.3 us in the bench against 39.5)
# at 1000x3000x4000 (issue 4's 0.98x), and deepgemm's own 2 x 1 twin runs slower still (`69a`:
# 41.0 against 39.4). Hypothesis: the one-wave 128 x 192 launch is paced by L2 -> SM traffic
# (each k-iteration 40 KB an SM, ~10 TB/s over 128 SMs), which B's multicast cuts to 28 KB.
# Predicted: deepgemm's c1x1_re at >= 75% of the L2's peak throughput and its tensor pipe a few
# points under cuBLASLt's; cuBLASLt's under 60% L2. If deepgemm's L2 is under 70%, L2 is not
# what paces it and the gap is elsewhere (prologue, epilogue: read from the trace).
# Same at 1536x2048x4096 (cuBLASLt 192 x 128 coopB in 1 x 2, deepgemm 128 x 192 re, 0.97x).
#     here:  nothing beyond `72a`'s pack (scripts/gpu-session72a.sh's header)
#     there: timeout 590 bash scripts/gpu-session73a.sh (DEADLINE=S for a shorter call)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEADLINE=${DEADLINE:-560}
have() { [ $((SECONDS + $1)) -lt "$DEADLINE" ]; }
nvidia-smi -L
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
"$NCU" --query-metrics --chip gh100 2>/dev/null | grep -iE "pipe_tensor|gmma" | cut -c1-120 >"$OUT/metrics.txt"
TENSOR=$(grep -oE "^sm__pipe_tensor_op_gmma_cycles_active|^sm__inst_executed_pipe_tensor_op_gmma" "$OUT/metrics.txt" | head -1)
echo "tensor metric: ${TENSOR:-none}"
MET=gpu__time_duration.sum,lts__t_bytes.sum,dram__bytes_read.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__cycles_active.avg
[ -n "$TENSOR" ] && MET="$MET,$TENSOR.avg.pct_of_peak_sustained_active"
# prof LABEL ARGS...: every deepgemm and cuBLASLt GEMM launch of one bench run under ncu.
prof() {
    local label=$1; shift
    have 60 || { echo "$label: skipped (${SECONDS}s)"; return; }
    timeout 120 "$NCU" --clock-control none -k "regex:nvjet|dg_sm90" --section SpeedOfLight \
        --metrics "$MET" "$B" --layout TN --iters 1 --warmup 0 --check none "$@" \
        >"$OUT/ncu-$label.txt" 2>&1
    echo "== $label rc=$? ${SECONDS}s"
    grep -E "^  [a-zA-Z_].*\(|gpu__time|lts__t_bytes|dram__bytes|lts__through|sm__through|gmma|sm__cycles|L2 Cache Throughput|Compute \(SM\)" \
        "$OUT/ncu-$label.txt" | sed -e 's/  */ /g' -e 's/(\([0-9]*\), \([0-9]*\), 1)x(\([0-9]*\), 1, 1).*/\1x\2 x\3/' | cut -c1-100
}
profs() {
    local S=$1
    prof "$S-default" --shape $S
    DEEPGEMM_VARIANT=m128n192k64_s5_c2x1_re prof "$S-c2x1re" --shape $S --no-cublas
    DEEPGEMM_VARIANT=m128n192k64_s4_c2x1 prof "$S-c2x1" --shape $S --no-cublas
}
profs 1000x3000x4000
# Phase clocks of deepgemm's two forms at 1000x3000x4000 (prologue to first wgmma, mainloop,
# epilogue; kernels compiled here with DG_TRACE, ~30 s each).
if have 90; then
    trace re --layout TN --shape 1000x3000x4000
    DEEPGEMM_VARIANT=m128n192k64_s5_c2x1_re trace c2x1re --layout TN --shape 1000x3000x4000
fi
profs 1536x2048x4096
# The 192-wide forms timed against each other and cuBLASLt, interleaved.
if have 90; then
    DEEPGEMM_VARIANT=m128n192k64 sweep n192 80 --interleave --layout TN --shape 1000x3000x4000 --shape 1536x2048x4096
    grep -E "^\[|sweep #|interleaved" "$OUT/sweep-n192.txt" | sed -e 's/(vs the timed.*//' -e 's/deepgemm first call.*heuristic[^,]*, //' | cut -c1-130
fi
finish
