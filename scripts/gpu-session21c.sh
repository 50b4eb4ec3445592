#!/usr/bin/env bash
# Session 21, part 3 (speed, confirmation): clusters along n planned by the model only where
# streamk::cluster_n_pays allows (tiles >= 64 wide, >= 2 tile rows of >= 4 tile columns,
# data-parallel), the rule fitted to `21b`. Every shape-layout whose plan moved against 8f19ac3
# (scripts/shapes/moved-21c-{tn,nn,tt,nt}.txt, 25), alternating three times, cuBLASLt alongside;
# then under-wave and random-k8 TN against cuBLASLt (the general sets of BENCHMARKS.md).
#   Predicted: the 21 moves `21b` timed at ~0.93 of the old time (0.915 there, the rule chosen on
#   that run, so some regression towards 1); 1048x1328x7360 TN/NN 1.04-1.07 (kept: the rule does
#   not separate it); the 4 untimed ones (request-rate-20d: 768x2048x8192 TN/NN, 768x2048x8200 NN,
#   512x2048x8200 NN) 0.90-1.10; none above 1.10.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh 8f19ac3
#     there: bash scripts/gpu-session21c.sh (~350 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
precompile_old
alternate_moved 3 moved-21c --check sample
bench under-wave-tn --check sample --shapes .gpu/shapes/under-wave.txt
bench random-k8-tn --check sample --shapes .gpu/shapes/random-k8.txt
finish
