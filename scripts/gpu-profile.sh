#!/usr/bin/env bash
# Runs on the GPU machine (from the repo root, .gpu carried): profiles one deepgemm GEMM with
# Nsight Compute and dumps the SASS of the kernels it compiled, to find where time goes.
#     bash scripts/gpu-profile.sh MxNxK [extra bench args...]
# Writes $OUT/ncu.txt and $OUT/sass.txt; prints the headline metrics.
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export DEEPGEMM_CACHE_DIR=${DEEPGEMM_CACHE_DIR:-/tmp/deepgemm-profile-cache}
shape=${1:-8192x8192x1024}
shift || true
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
"$NCU" --clock-control none -k regex:dg_ -c 1 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
    --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy \
    --section SourceCounters \
    .gpu/deepgemm-bench --shape "$shape" --iters 1 --warmup 0 --no-cublas --check none "$@" \
    > "$OUT/ncu.txt" 2>&1
echo "ncu rc=$?"
grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|Stall|Warp Cycles Per Issued|Issued Warp|No Eligible|Registers Per|Dynamic Shared|L2 Hit|Executed Ipc" "$OUT/ncu.txt" | head -40
: >"$OUT/sass.txt"
for f in "$DEEPGEMM_CACHE_DIR"/dg_*.cubin; do
    tail -c +25 "$f" >/tmp/k.cubin   # strip deepgemm's 24-byte cache header
    cuobjdump -sass /tmp/k.cubin >>"$OUT/sass.txt" 2>&1
done
echo "sass lines: $(wc -l <"$OUT/sass.txt"); LDL/STL: $(grep -cE 'LDL|STL' "$OUT/sass.txt")"
