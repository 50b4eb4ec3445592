#!/usr/bin/env bash
# Session 56, second call (~5 min): does D's traffic evict B between 16-row groups? Session 55
# measured 17000x32768x256 NN at 0.832 ms walking whole tile columns against 0.975 with the
# default walk, although its B (16.8 MB) is under the rule's 30 MB bound. Here 24 shapes under
# the bound (scripts/shapes/walk-56.txt), TN, deepgemm alone, whole columns
# (DEEPGEMM_GROUP_M=4096) against the default, two rounds alternating.
# Predicted: whole columns faster where one group's D bytes (2048 x n x 2) plus B exceed ~the
# L2 (n >= ~14336: 0.85-0.95 of the time), a wash where they fit (n <= 8192).
#     there: timeout 590 bash scripts/gpu-session56b.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
A="--no-cublas --check none --iters 20 --warmup 3 --shapes .gpu/shapes/walk-56.txt"
for r in 1 2; do
    bench walk-default-$r $A
    DEEPGEMM_GROUP_M=4096 bench walk-columns-$r $A
done
finish
