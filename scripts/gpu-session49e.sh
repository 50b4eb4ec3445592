#!/usr/bin/env bash
# Session 49, call e (~3 min): the cost model charges an odd D's general epilogue (stored in
# place, column- or row-major) per data-parallel wave but the last (`streamk::in_place_d_tile_s`;
# before, those plans were modelled at the aligned D's time). Moved: with D's ld + 1
# (`--pad 0,0,0,1`) 46 shape-layouts of random-21d / random-k8 / under-wave / set A; of the kept
# sets as they are, NT 4097³ and 4100³ only. Times a sample of them, this build against the one
# before (.gpu/old, scripts/gpu-pack-old.sh), deepgemm alone, alternating twice. Predicted: the
# moved plans 0.95-1.0 of the time before (tile widths with fewer staged rounds, fewer swaps onto
# a row-major odd D).
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh HEAD~1
#     there: timeout 300 bash scripts/gpu-session49e.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile "$(paste -sd, .gpu/shapes/kernels-49e.txt)" >/dev/null; echo "precompile ${SECONDS}s"
A="--no-cublas --iters 30 --warmup 5 --check none"
for r in 1 2; do
    for l in tn nn tt nt; do
        L=${l^^}
        bench new-$l-$r $A --layout $L --pad 0,0,0,1 --shapes .gpu/shapes/odd-d-49e-$l.txt
        B=.gpu/old/deepgemm-bench bench old-$l-$r $A --layout $L --pad 0,0,0,1 --shapes .gpu/shapes/odd-d-49e-$l.txt
    done
    bench new-cube-$r $A --layout NT --workspace-mib 160 --shape 4097x4097x4097 --shape 4100x4100x4100
    B=.gpu/old/deepgemm-bench bench old-cube-$r $A --layout NT --workspace-mib 160 --shape 4097x4097x4097 --shape 4100x4100x4100
done
