#!/usr/bin/env bash
# Session 14, main (4a224e3's kernels): (1) every heuristic candidate timed against the model
# on the issue-4 shapes still under 1.0 (1000x3000x4000 at 0.97; small-M/N rows at 0.94-0.97),
# to see whether the model mis-ranks them; (2) the SM clock and power while bf16 and fp16 run
# the same shape, for 14d's fp16-below-bf16 gap (both libraries 2-19% slower in fp16).
# Predicted: (1) the chosen plan within 3% of the fastest candidate on each; (2) fp16 at a
# lower SM clock than bf16 (power-limited), by about the time ratio.
#     here:  bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session14e.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
bench sweep-1000 --shape 1000x3000x4000 --sweep --check none --no-cublas
bench sweep-small --shape 1x4096x4096 --shape 64x4096x4096 --shape 128x8192x8192 --shape 128x2112x7168 --sweep --check none --no-cublas
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 100 >"$OUT/smi.txt" 2>&1 &
SMI=$!
for t in bf16 fp16 bf16 fp16; do
    echo "$(date +%T.%N) start $t" >>"$OUT/marks.txt"
    bench clk-$t --shape 4096x8192x8192 --dtype $t --iters 300 --check none
    echo "$(date +%T.%N) end $t" >>"$OUT/marks.txt"
done
kill $SMI
(cd "$OUT" && tar czf logs.tgz --remove-files *.txt)
