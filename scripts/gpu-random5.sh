#!/usr/bin/env bash
# The general case after the fill tiles: 32 random mid-size bf16 TN shapes against cuBLASLt
# (scripts/shapes/random.txt), and every candidate timed on six of them where the model put a
# 208-240 wide fill tile ahead of 128x256 (its efficiencies for those widths come from
# one-wave runs).
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-random5.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
$B --shapes .gpu/shapes/random.txt >"$OUT/random.txt" 2>&1
echo "random rc=$? ${SECONDS}s"
grep -E "^[0-9]+x[0-9]+x[0-9]+ |^ratio" "$OUT/random.txt" | awk '{print $1, $5, $6, $7, $8, $9, $12}'
grep -E "^\[" "$OUT/random.txt" | sed -e 's/.*heuristic [0-9.]* ms, dg_sm90_bf16_bf16_//' -e 's/); check.*//' | tr '\n' ' '; echo
$B --sweep --shape 3456x4881x8192 --shape 5568x4922x6912 --shape 3808x8028x6656 --shape 4056x2736x3904 --shape 5888x4800x1984 --shape 3712x5832x1536 >"$OUT/sweep.txt" 2>&1
echo "sweep rc=$? ${SECONDS}s"
grep -E "^\[|sweep #" "$OUT/sweep.txt" | sed -e 's/(vs the timed.*//' -e 's/deepgemm first call.*heuristic [0-9.]* ms, //' -e 's/dg_sm90_bf16_bf16_//' | cut -c1-120
