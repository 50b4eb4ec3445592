#!/usr/bin/env bash
# Session 24 (~300 s): the general sets against cuBLASLt at main's final plans (4ee9c87 moved
# 33 shape-layouts: random-21d TN 6, random-k8 TN 1 and TT 1, under-wave TN 2,
# small-mn-long-k TN 3), one run each, sampled checks.
#   Predicted (23h / 24a before): random-21d TN 0.869 -> ~0.875, random-k8 TN 0.927 -> ~0.93,
#   TT 0.899 -> ~0.905, under-wave 0.873 -> ~0.876, small-mn-long-k 0.807 -> ~0.81.
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session24j.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile _bf16_bf16_tn_ >/dev/null; echo "precompile tn ${SECONDS}s"
bench small-mn-long-k-tn --shapes .gpu/shapes/small-mn-long-k.txt --check sample
bench under-wave-tn --shapes .gpu/shapes/under-wave.txt --check sample
bench random-k8-tn --shapes .gpu/shapes/random-k8.txt --check sample
bench random-k8-tt --layout TT --shapes .gpu/shapes/random-k8.txt --check sample
bench random-21d-tn --shapes .gpu/shapes/random-21d.txt --check sample
grep -h "^ratio\|passed" "$OUT"/*.txt
finish
