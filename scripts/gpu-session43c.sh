#!/usr/bin/env bash
# Session 43, call c (~3 min): what cuBLASLt launches where deepgemm loses most (the worst
# random-21d, small-mn-long-k and under-wave shapes of `40f`, TN), next to deepgemm's own plan:
# Nsight Compute's launch statistics (grid, cluster, block, registers, shared memory) and
# duration, DRAM and L2 bytes of every kernel of one bench run a shape (deepgemm's plan, then
# cuBLASLt's kernels: its GEMM and any split-K reduction). No L2 flush between the replays
# (ncu's own cache control flushes before each replay by default: `--cache-control all`).
# Analyse with scripts/ncu-kernels.py $OUT/ncu-small.txt.
#     there: bash scripts/gpu-session43c.sh  (.gpu carried; any pack: only the plans matter)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"
SHAPES=${SHAPES:-"256x288x7224 272x328x13248 280x696x5096 464x336x6536 432x288x1632 2232x288x4256 1656x2576x952 496x416x3288 912x320x3520 320x600x1704 664x720x2480 3968x392x2152 2944x544x6480 984x280x6264 104x256x15288 608x112x12848 192x576x12072 928x200x16176 840x696x2240 1760x408x2496 264x1168x2424 928x368x3968 432x840x1832 416x568x8000"}
for s in $SHAPES; do
    echo "== $s" >>"$OUT/ncu-small.txt"
    timeout 60 "$NCU" --clock-control none -k 'regex:^(dg_|nvjet|cutlass|.*[Ss]plit[Kk]|.*gemv|.*gemm|.*Kernel)' \
        --section LaunchStats --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_bytes.sum \
        .gpu/deepgemm-bench --shape "$s" --layout TN --iters 1 --warmup 0 --check none \
        >>"$OUT/ncu-small.txt" 2>&1
    echo "== $s rc=$? ${SECONDS}s"
done
finish
