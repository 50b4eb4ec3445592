#!/usr/bin/env bash
# Session 41, call b (~6 min): wip/pingpong-narrow.patch with 41's limits, out of sample.
# `41a` (scripts/gpu-session40g.sh) split the first version's moves by the kernel's operand
# layout (plan::pingpong_for_narrow's comment); the limits now follow it. Here every
# shape-layout a fresh random set moves (scripts/shapes/moved-41-{tn,nt,nn,tt}.txt, 279, seed
# 4101), alternating three rounds against main. Predicted: NN and TT (computed as NN swapped)
# ~0.91 of main's time, TN and NT ~0.96, none above 1.05.
#     here: apply the patch; cargo build --release --lib --bin deepgemm-bench; copy the bench
#           and libdeepgemm.so into .gpu (its cubins: main's, the kernels are unchanged);
#           .gpu/old from scripts/gpu-pack-old.sh main old; scripts/shapes/moved-41-* into .gpu/shapes
#     there: bash scripts/gpu-session41b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
for r in 1 2 3; do
    for layout in TN NT NN TT; do
        l=$(tr 'A-Z' 'a-z' <<<"$layout")
        bench "m41-$l-new-$r" --layout $layout --shapes .gpu/shapes/moved-41-$l.txt --iters 20 --warmup 3
        bench_old "m41-$l-old-$r" --layout $layout --shapes .gpu/shapes/moved-41-$l.txt --iters 20 --warmup 3
    done
done
finish
