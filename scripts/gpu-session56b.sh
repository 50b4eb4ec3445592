#!/usr/bin/env bash
# Session 56, second call (~3 min): 56a's walk round found whole tile columns 0.85-0.89 of the
# default walk's time on every m = 17000 shape (A <= 8.7 MB, B 1-26 MB, k 128-256), about
# neutral at m = 3072-8192: the gain follows m (D's column runs: m long against 2048 rows a
# group), not B's size. Out of sample: 12 tall shapes (m >= 12288, A <= 16 MiB) and 4
# controls, TN, deepgemm alone, default against whole columns (DEEPGEMM_GROUP_M=4096).
# Predicted: tall 0.85-0.95 of the time, controls 0.97-1.03.
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
A="--no-cublas --check none --iters 20 --warmup 3 --shapes scripts/shapes/walk-56-tall.txt"
bench tall-default-1 $A
DEEPGEMM_GROUP_M=4096 bench tall-columns-1 $A
bench tall-default-2 $A
DEEPGEMM_GROUP_M=4096 bench tall-columns-2 $A
finish
