#!/usr/bin/env bash
# GPU call: Nsight Compute durations, DRAM bytes and L2 hit rates of chosen heuristic candidates
# (by rank, `--algo-index`), one kernel each, without the bench's L2-flush write-backs. For
# the small-M split/data-parallel question and the Stream-K-versus-L2 question.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-ncu-small.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
METRICS=${METRICS:-gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,sm__throughput.avg.pct_of_peak_sustained_elapsed}
one() { # decomposition shape index
    echo "-- $2 rank $3 (DEEPGEMM_DECOMPOSITION=$1)"
    DEEPGEMM_DECOMPOSITION=$1 "$NCU" --clock-control none -k regex:dg_sm90 -c 1 --metrics $METRICS \
        .gpu/deepgemm-bench --shape "$2" --algo-index "$3" --iters 1 --warmup 0 --no-cublas --check none 2>&1 |
        grep -E "heuristic|dg_sm90_.*Context|${GREP:-gpu__time|dram__bytes|lts__t_sector_hit|sm__throughput}" | sed -e 's/  */ /g' | cut -c1-160
}
# CASES: "decomposition shape rank" triples separated by ';'.
CASES=${CASES:-"auto 64x4096x4096 3;auto 64x4096x4096 8;auto 64x4096x4096 0;auto 64x2112x7168 0;auto 64x2112x7168 8;auto 64x2112x7168 11;auto 64x2112x7168 13;auto 1x4096x4096 4;auto 1x4096x4096 2;streamk 1664x1664x8192 1;dp 1664x1664x8192 2;auto 127x4095x4096 0;auto 127x4095x4096 3"}
IFS=';' read -ra LIST <<<"$CASES"
for spec in "${LIST[@]}"; do
    # shellcheck disable=SC2086
    one $spec
done
