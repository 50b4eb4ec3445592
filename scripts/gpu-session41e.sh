#!/usr/bin/env bash
# Session 41, call e (~2.5 min): plan::solo_for_short (the solo 64x64 tile first where its tiles
# fit one CTA an SM and k is at most 20 iterations; fitted in sample on `41c`/`41d`: 18
# shape-layouts 0.918 of the plan's time) out of sample: every shape-layout a fresh random set
# moves (scripts/shapes/moved-41s-{tn,nt,nn,tt}.txt, 57 each), against the build without the
# rule, alternating by layout (a second round if the device time allows).
# Predicted: 0.90-0.95 of the time in TN and NT, NN and TT (not in the fit) 0.93-1.0.
#     here: .gpu/deepgemm-bench with the rule, .gpu/old/deepgemm-bench without (the same
#           kernels: .gpu/old/cubins.txz a copy of .gpu/cubins.txz); shapes into .gpu/shapes
#     there: bash scripts/gpu-session41e.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
for r in 1 2; do
    for layout in TN NT NN TT; do
        l=$(tr 'A-Z' 'a-z' <<<"$layout")
        bench "s41-$l-new-$r" --layout $layout --shapes .gpu/shapes/moved-41s-$l.txt --iters 20 --warmup 3 --check none
        bench_old "s41-$l-old-$r" --layout $layout --shapes .gpu/shapes/moved-41s-$l.txt --iters 20 --warmup 3 --check none
    done
done
finish
