#!/usr/bin/env bash
# Session 18: every candidate of random-k8 timed in NN and TT (--sweep), the data to score the
# model in the layouts where the general shapes trail most (18d: 0.863 and 0.844 of cuBLASLt).
# The logs go to scripts/sweeps/ (18e-random-k8-nn.txt, -tt.txt).
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session18e.sh (.gpu carried, ~220 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
for l in NN TT; do
    timeout 200 "$B" --sweep --no-cublas --check none --iters 20 --warmup 3 --layout $l --shapes .gpu/shapes/random-k8.txt >"$OUT/sweep-$l.txt" 2>&1
    echo "== sweep $l rc=$? ${SECONDS}s"
done
finish
