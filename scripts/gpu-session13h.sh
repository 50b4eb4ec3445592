#!/usr/bin/env bash
# Session 13, closing call (main after merging next/sk-fixup): the small-N set and set A
# against cuBLASLt with main's final kernels (session 12's set A and 13a's small-N figures
# were taken before the Stream-K fixup change; their split and Stream-K plans changed speed).
# Predicted: small-N ~1.04-1.05 (13a: 1.043; its split plans 2-9% faster as small-M's in
# 13g); set A ~1.00 (12g: 0.998), the Stream-K plans (8192^3, 4096x28672x8192,
# 4096x7168x16384) 0-2% faster.
#     here:  bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session13h.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
bench small-n --shapes .gpu/shapes/small-n.txt
bench set-a --shapes .gpu/shapes/set-a.txt
