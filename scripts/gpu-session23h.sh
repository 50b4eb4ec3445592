#!/usr/bin/env bash
# Session 23, last call (~300 s): the TN general sets and the small-M set against cuBLASLt at
# main's final kernels (4dc2825: the prologue unrolled and only the ring's first stage before the
# CTA barrier; plans as session 22's), one run each, sampled checks.
#   Predicted (session 22's figures, the kernel changes worth ~2% on small launches): small-M
#   1.05-1.06, under-wave 0.87-0.88, small-mn-long-k 0.81-0.82, random-k8 0.92-0.93,
#   random-21d 0.86-0.87.
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session23h.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile _bf16_bf16_tn_ >/dev/null; echo "precompile TN ${SECONDS}s"
bench small-m --check sample --shapes .gpu/shapes/small-m.txt
bench under-wave --check sample --shapes .gpu/shapes/under-wave.txt
bench small-mn-long-k --check sample --shapes .gpu/shapes/small-mn-long-k.txt
bench random-k8 --check sample --shapes .gpu/shapes/random-k8.txt
bench random-21d --check sample --shapes .gpu/shapes/random-21d.txt
finish
