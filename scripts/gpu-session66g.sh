#!/usr/bin/env bash
# Session 66 (~3 min): the TMA-store epilogue against the general one (DEEPGEMM_TMA_STORE=0) on
# launch-bound problems: tiny-66 (TN, NN; L2 flushed, and TN in chains of 8), under-wave.txt
# and small-m-66.txt (TN), two rounds each alternating, cuBLASLt in every run. 66e measured the
# TMA store of one 64 x 64 box at ~1,350 cycles of a ~4,900-cycle one-tile launch and the
# general epilogue of a 128x32 tile at ~950; predicted: one-tile launches 0.93-0.97 of the time
# with the general epilogue, multi-tile ones slower (the TMA store overlaps the next mainloop).
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests     there: timeout 590 bash scripts/gpu-session66g.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
T=.gpu/shapes/tiny-66.txt
one() { # NAME ARGS...
    local name=$1 r; shift
    for r in 1 2; do
        bench "$name-tma-$r" "$@"
        DEEPGEMM_TMA_STORE=0 bench "$name-gen-$r" "$@"
    done
}
one tinyTN --shapes $T --iters 100
one tinyNN --shapes $T --iters 100 --layout NN
one tinyTNchain --shapes $T --iters 50 --chain 8
one underwave --shapes .gpu/shapes/under-wave.txt
one smallm --shapes .gpu/shapes/small-m-66.txt
finish
