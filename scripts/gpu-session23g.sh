#!/usr/bin/env bash
# Session 23, after 23f: 4 stages before the CTA barrier (kPrologueStages, kernels/sm90/gemm.cuh)
# instead of 23f's one, against main (.gpu/old: the whole ring before it). 23f's one stage took
# the small launches to 0.977 of main's time (short-k data-parallel launches up to 10% faster:
# 352x344x712 9.9 -> 8.7 us) but long-k splits 2-4% slower (936x312x8952 28.4 -> 29.3): the
# loads after the first waited for the barrier and the hand-over (~300-600 cycles), a gap in the
# stream. Four stages keep TMA busy across it and still free the consumers' registers (~2,600
# cycles) before the first stage lands (~3,500-4,500).
#   1. DG_TRACE, both builds (kept in $OUT/traces.txt).
#   2. Both builds alternating twice on 23f's 101 shapes (deepgemm alone).
#   3. Every direct nvrtc_sm90 case, if the time allows.
#   Predicted: the short-k data-parallel gains kept (those shapes 0.90-0.95 of main), the long-k
#   splits back to 0.99-1.01 of main; the small launches 0.97-0.98 overall, decode and large
#   within 1%.
#   Measured (at 61272c5 + kPrologueStages = 4): small launches 0.982 of main's time (splits
#   0.990, the others 0.977), decode 1.000, large 1.002: no better than one stage (23f: 0.977,
#   0.993, 0.968), which main took at 4dc2825; this variant no longer rebuilds.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh <main>
#     there: bash scripts/gpu-session23g.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile _bf16_bf16_tn_ >/dev/null; echo "precompile TN ${SECONDS}s"
precompile_old _bf16_bf16_tn_
trace_both 1x4096x4096 496x376x1360 936x312x8952
launch_cost_shapes > .gpu/shapes/first-stage-tn.txt
echo "shapes: $(wc -l < .gpu/shapes/first-stage-tn.txt)"
LAYOUTS=TN alternate_moved 2 first-stage --no-cublas --check sample
if [ $SECONDS -lt 400 ]; then
    direct
fi
finish
