#!/usr/bin/env bash
# Session 14, main: where 4095^3's extra ~64 us over 4096^3 go (packed plans, 160 MiB of
# workspace): every kernel's duration under Nsight Compute (clocks not locked), deepgemm alone,
# one launch after one warm-up, no L2 flush.
# Predicted: two pack kernels of ~20 us each (134 MB at ~3.2 TB/s), the GEMM on the packed
# copies ~180 us (4096^3's ~175 plus its ragged last tiles); the rest launch gaps.
#     here:  bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session14h.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for s in 4096x4096x4096 4095x4095x4095 4097x4097x4097 4100x4100x4100; do
    timeout 100 "$NCU" --clock-control none --metrics gpu__time_duration.sum "$B" --shape $s \
        --no-cublas --iters 1 --warmup 1 --check none --no-flush --workspace-mib 160 >"$OUT/ncu-$s.txt" 2>&1
    echo "== $s rc=$? ${SECONDS}s"
    grep -E "^  [a-z_]+.*\(|gpu__time_duration" "$OUT/ncu-$s.txt" | paste - - | awk '{print $1, $(NF)}' | tail -8
done
(cd "$OUT" && tar czf logs.tgz --remove-files *.txt)
