#!/usr/bin/env bash
# Session 60, third call (~8 min): `dec38fe` (the fixup's wider batches) against `1ea4f25`,
# the same plans, alternating, two rounds, cuBLASLt in each run: the shapes whose first plan
# splits 96-128 wide or 128x16 tiles (scripts/shapes/fixup-60-{tn,nn}.txt), and a control of
# data-parallel plans (set A's 4096³-class shapes: the kernels are the same binaries' other
# paths). Predicted: 0.95-0.99 of the time on splits with 3+ contributors a tile, ~1.0 on 2
# (decode's 128x16 pairs) and on the control.
#     there: timeout 580 bash scripts/gpu-session60c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
pair tn 2 --layout TN --shapes .gpu/shapes/fixup-60-tn.txt
pair nn 2 --layout NN --shapes .gpu/shapes/fixup-60-nn.txt
pair ctl 1 --layout TN --shape 4096x4096x4096 --shape 2048x2048x2048 --shape 4096x7168x2048 --shape 4096x2112x7168
finish
