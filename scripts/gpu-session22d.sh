#!/usr/bin/env bash
# Session 22: the planner change (tiles up to 64 wide split unevenly over at least 3 CTAs a
# tile, operands in the L2, charged as split-K; the data-parallel fixed cost of
# wip/dp-fixed-cost.patch from 20 k-iterations up) against main (.gpu/old, 5648faf) on every
# shape-layout it moves (scripts/shapes/moved-22d-*: 260 over set A, the cliffs, waves,
# random, random-k8, random-21d, under-wave, kalign-19d, small-m, small-n, small-mn-long-k),
# deepgemm alone, once each (the device time of this session allows one round); then the
# new build against cuBLASLt on small-mn-long-k TN.
#   Predicted: 0.95-0.98 of main's time over the moved shape-layouts, none above 1.15;
#   small-mn-long-k's moved TN shapes 0.90-0.95.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh 5648faf
#     there: bash scripts/gpu-session22d.sh (~400 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
precompile_old
alternate_moved 1 moved-22d --no-cublas --check sample
bench smallmn-vs-cublas --shapes .gpu/shapes/small-mn-long-k.txt --check sample
finish
