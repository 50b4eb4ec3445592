#!/usr/bin/env bash
# Session 26 (~250 s): do ragged tiles (a TMA box partly outside A or B, zero-filled) cost time?
# `26a` traced 128x128 data-parallel at k = 6528: 2944x544 (a last tile column 32 of 128 wide)
# took 50.4 us, 2944x640 (all whole) 40.6 us; its late CTAs (45.9 us against a median of 37.6)
# were the last column's. DG_SHIFT_TAIL (a temporary experiment, not kept: timing only, wrong
# results) moved a ragged tile's boxes back inside the tensor, so the same bytes move without
# out-of-bounds fill; in kernels/sm90/gemm.cuh's issue_loads, after load_n0 is set:
#     #ifdef DG_SHIFT_TAIL
#     if (p.n >= BLOCK_N && load_n0 + BLOCK_N > p.n) load_n0 = static_cast<int>(p.n) - BLOCK_N;
#     if (p.m >= BLOCK_M && load_m0 + BLOCK_M > p.m) load_m0 = static_cast<int>(p.m) - BLOCK_M;
#     #endif
#   1. Trace and time 128x128 data-parallel on scripts/shapes/ragged-26c.txt with and without.
#   2. The planner's plans, with and without, alternating twice, on worst-25b, random-k8 and
#      random-21d (TN, no cuBLASLt, no check).
#   Predicted: with the shift 2944x544 ~40.5 us (as 2944x640), the late CTAs gone; the sets
#   0.95-0.98 of the time (most random shapes have a ragged tile row or column).
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session26c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes/ragged-26c.txt
(
    export DEEPGEMM_VARIANT=m128n128k64_s6_c1x1 DEEPGEMM_DECOMPOSITION=dp
    for s in $(grep -v '^#' $S); do
        trace "$s" --shape "$s"
        TRACE_DEFINES=DG_SHIFT_TAIL trace "shift $s" --shape "$s"
    done
    bench dp-plain --no-cublas --check none --shapes $S
    DEEPGEMM_NVRTC_DEFINES=DG_SHIFT_TAIL bench dp-shift --no-cublas --check none --shapes $S
)
for r in 1 2; do
    for set in worst-25b random-k8 random-21d; do
        bench "$set-plain-$r" --no-cublas --check none --shapes .gpu/shapes/$set.txt
        DEEPGEMM_NVRTC_DEFINES=DG_SHIFT_TAIL bench "$set-shift-$r" --no-cublas --check none --shapes .gpu/shapes/$set.txt
    done
done
finish
