#!/usr/bin/env bash
# Session 23: the ring's first stage only before the CTA barrier (kernels/sm90/gemm.cuh), the
# rest after the register hand-over, against main (.gpu/old). 23b's traces showed thread 0
# issuing the whole ring (~350 cycles a stage) before the producer warpgroup's setmaxnreg.dec,
# so the consumers' setmaxnreg.inc passed only at ~4,700 cycles on 10-11-stage launches
# (1x4096x4096: stage 0 then found full at once, the producer idle from ~4,450 until ~5,700).
#   1. Every direct nvrtc_sm90 case (stops on a failure).
#   2. DG_TRACE, both builds (kept in $OUT/traces.txt).
#   3. Both builds alternating twice, deepgemm alone: 23c's small launches (random-21d under
#      15 us and under-wave), the decode rows M = 1 and 16, and four large shapes.
#   4. The gpu_matmul grid at the model's plans, if the time allows.
#   Predicted: consumers' registers at ~1,800 instead of ~4,700 and the first full stage at
#   ~2,500-3,200 instead of ~4,800-5,500 on 10-11 stages; launches end 800-2,000 cycles sooner
#   there; 4-stage 128x256 at 4096^3 unchanged (its first stage arrives after ~4,200 anyway).
#   Small launches 0.4-1.0 us faster (3-7%), decode 0.3-1 us, large shapes within 1%.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh HEAD   (HEAD = main)
#     there: bash scripts/gpu-session23f.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
direct || { finish; exit 1; }
"$B" --precompile _bf16_bf16_tn_ >/dev/null; echo "precompile TN ${SECONDS}s"
precompile_old _bf16_bf16_tn_
trace_both 1x4096x4096 496x376x1360 64x4096x4096 4096x4096x4096
launch_cost_shapes > .gpu/shapes/first-stage-tn.txt
echo "shapes: $(wc -l < .gpu/shapes/first-stage-tn.txt)"
LAYOUTS=TN alternate_moved 2 first-stage --no-cublas --check sample
if [ $SECONDS -lt 420 ]; then
    timeout $((570 - SECONDS)) .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/grid.txt" 2>&1
    echo "grid: $(groups "$OUT/grid.txt") ${SECONDS}s"
fi
finish
