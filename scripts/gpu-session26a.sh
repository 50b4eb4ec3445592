#!/usr/bin/env bash
# Prepared in session 25, not yet run (~200 s), main's build: why deepgemm's 128x128 keeps its
# tensor pipes only 76% busy on a one-wave launch of one tile a CTA (2944x544x6528: 51.0 us,
# 0.50 us a k-iteration) where the same kernel reaches 0.353 us a k-iteration over the waves of
# 3200^2 and cuBLASLt 89% on the same shape (`25e`). Ruled out in session 25: the rows'
# alignment, the L2 request count, the CTAs moving through k in step (BENCHMARKS.md).
#   1. DG_TRACE (phase clocks, every CTA's span) of 128x128 data-parallel on 2944x544 (a last
#      tile column 32 of 128 wide), 2944x640 (115 full tiles), 2944x512 (92) at k = 6528, and
#      3200^2 x 8192.
#   2. The same four timed under each L2 promotion of the operands (none / 128 / 256).
#   3. Nsight Compute's warp states and memory tables for deepgemm's 128x128 and cuBLASLt's
#      kernel on 2944x544x6528.
#   Predicted: the ragged last column does not decide (2944x640 ~0.50 us a k-iteration too); the
#   consumers wait on their full barriers (load-starved: A streams from DRAM once, 128-byte
#   pieces of rows 13 KB apart), which cuBLASLt's 7 stages of 128x112 hide better; the promotion
#   moves it by under 5%.
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session26a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
export DEEPGEMM_VARIANT=m128n128k64_s6_c1x1 DEEPGEMM_DECOMPOSITION=dp
"$B" --precompile m128n128k64_s6_c1x1 >/dev/null
DEEPGEMM_NVRTC_DEFINES=DG_TRACE "$B" --precompile m128n128k64_s6_c1x1 >/dev/null; echo "precompile ${SECONDS}s"
for s in $(grep -v '^#' .gpu/shapes/one-wave-26a.txt); do trace "$s" --shape "$s"; done
for pr in none 128 256; do
    DEEPGEMM_L2_PROMOTION=$pr bench "promotion-$pr" --no-cublas --check none --shapes .gpu/shapes/one-wave-26a.txt
done
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for k in dg_sm90 nvjet; do
    timeout 120 "$NCU" --clock-control none -k "regex:$k" -c 1 --section WarpStateStats --section MemoryWorkloadAnalysis \
        --section SpeedOfLight --page details "$B" --shape 2944x544x6528 --iters 1 --warmup 0 --check none >"$OUT/ncu-$k.txt" 2>&1
    echo "=== ncu $k rc=$? ${SECONDS}s"; grep -iE "stall|warp cycles|throughput|hit rate|duration|busy" "$OUT/ncu-$k.txt" | sed 's/  */ /g' | head -30
done
unset DEEPGEMM_VARIANT DEEPGEMM_DECOMPOSITION
finish
