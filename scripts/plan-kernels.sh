#!/usr/bin/env bash
# Prints the kernels of BENCH's first-choice plans for the shape lists FILES in LAYOUT (default
# TN), comma-separated without their decomposition suffix: a CUBINS= list for gpu-pack.sh /
# gpu-pack-old.sh, so a before/after run on those shapes compiles nothing on the GPU machine.
#     CUBINS=$(bash scripts/plan-kernels.sh target/release/deepgemm-bench TN scripts/shapes/under-wave.txt)
set -euo pipefail
BENCH=$1 LAYOUT=$2; shift 2
for f in "$@"; do
    "$BENCH" --plans --shapes "$f" --layout "$LAYOUT" 2>/dev/null | grep -A1 -E "^[0-9]+x[0-9]+x[0-9]+:" |
        grep -oE "dg_sm90_[a-z0-9_]+" || true
done | sort -u | paste -sd, -
