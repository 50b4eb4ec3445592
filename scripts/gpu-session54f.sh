#!/usr/bin/env bash
# Session 54, sixth call (~2 min): does walking whole tile columns (DEEPGEMM_GROUP_M=4096) beat the
# default 16-row L2 group where A fits in the L2 and B does not (B then streams from DRAM once
# per 16-row group instead of once)? `54e`: 17000x128256x256 NN 4.40 ms at 16, 3.77 at 512
# (cuBLASLt 3.51); 8 batches of 8192x8192x128 (both operands fit) 287 TFLOP/s at 16, 274 at
# 64. Predicted: whole columns faster on the shapes marked `rule` (B past the L2, A well under
# it, more than 16 tile rows), within noise or slower on the controls.
#     there: timeout 200 bash scripts/gpu-session54f.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
Q="--no-cublas --check none --iters 10 --warmup 2"
for s in "TN 4096x65536x512 rule" "TN 4100x65536x512 rule" "TN 8192x32768x1024 rule" "TN 3000x100000x256 rule" \
    "TN 6144x50000x2048 rule" "NN 17000x32768x256 control" "TN 8192x8192x8192 control" "TN 2048x8192x8192 control"; do
    set -- $s
    for g in 16 4096; do
        DEEPGEMM_GROUP_M=$g bench g$g-$1-$2 $Q --layout $1 --shape $2
    done
done
finish
