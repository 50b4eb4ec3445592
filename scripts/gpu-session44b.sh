#!/usr/bin/env bash
# Session 44, call b (~7 min): the producer as one converged warp (warp-collective TMA loads,
# elect.sync inside the asm; its loop in uniform registers, ~45 instructions a stage where the
# one-thread form had ~75 with an R2UR/ELECT loop around each copy). `44a` found the producer
# of the solo 64x64 issuing ~90% of its samples and the consumers waiting on full barriers 60%.
# First every direct nvrtc_sm90 case (the producer is in every variant), then before/after
# (.gpu/old = the commit before) on under-wave, small-mn-long-k, big-44b and the solo 64x64.
#     here: CUBINS=<plan kernels> bash scripts/gpu-pack.sh; CUBINS=... bash scripts/gpu-pack-old.sh HEAD
#     there: bash scripts/gpu-session44b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
direct direct 300 || { finish; exit 1; }
for s in under-wave small-mn-long-k big-44b; do
    pair "$s" 1 --shapes ".gpu/shapes/$s.txt"
done
DEEPGEMM_SOLO=1 DEEPGEMM_VARIANT=m64n64k64_s5 pair solo 2 --shape 928x368x3968 --shape 392x360x6328 --shape 368x384x3952
finish
