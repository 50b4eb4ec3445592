#!/usr/bin/env bash
# Fourth GPU script of session 10, on main after the epi-wait merge: the scheduler's L2 group
# (tile rows walked before the next tile column, DEFAULT_GROUP_M = 16, never tuned on the
# H200), through DEEPGEMM_GROUP_M, on set A without cuBLASLt. Why: 10b's traces show the
# 128x256 tiles after the first running 69.7k cycles each (64 k-steps) whatever their epilogue
# took (3,031 or 2,156 cycles): ~1,089 cycles per 48 KiB stage against ~1,030 for the tensor
# work, so the loads (DRAM misses: 145 MB read at 4096^3 against 64 MB of A and B) set the
# pace. Predicted: a group whose wave's panels stay in L2 changes set A by 1-3% either way;
# 16 and the best repeated for the spread.
#     here:  bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session10d.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
for g in 16 8 32 4 64 16 8 32; do
    DEEPGEMM_GROUP_M=$g bench set-a-g$g-$SECONDS --shapes .gpu/shapes/set-a.txt --no-cublas
done
