#!/usr/bin/env bash
# Prepared in session 49 for the next GPU session (two calls: `moves` ~2.5 min, `grid` ~8.5
# min): what 49 merged without its last measurement.
#   1. The whole gpu_matmul grid at main's defaults (last run whole in session 47; sessions 48
#      and 49 changed plans: the cluster hybrids, the odd-D charge), with the new
#      odd_d_in_place group. Predicted: all pass.
#   2. The 34 shape-layouts `streamk::in_place_d_tile_s` (734b82e) moves with D's ld + 1
#      (`scripts/shapes/moved-49-pad-d-*.txt`: random-21d, random-k8, under-wave, set A), this
#      build against 9aeb881's (the build before), deepgemm alone, alternating twice. 49e timed 9
#      of them at 0.92 of the time before; predicted 0.93-0.97 over all 34 (the 25 others not
#      timed, 3 of them sampled under its first form onto other plans).
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh 9aeb881
#     there: timeout 580 bash scripts/gpu-session50a.sh moves|grid; . scripts/gpu-env.sh; finish
# Here, after: python3 scripts/compare-runs.py scripts/sweeps/50a 'new-*.txt' 'old-*.txt'
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
if [ "${1:-moves}" = grid ]; then
    precompile_all
    grid grid-50a 330
    # gpu_pack's odd-D group now expects the transposed plan in 6 of its 12 cases (734b82e).
    pack_and_blas 60 1
    exit
fi
"$B" --precompile "$(paste -sd, .gpu/shapes/kernels-50a.txt)" >/dev/null
echo "precompile ${SECONDS}s"
A="--no-cublas --iters 30 --warmup 5 --check none"
for r in 1 2; do
    for l in tn nn tt nt; do
        bench new-$l-$r $A --layout ${l^^} --pad 0,0,0,1 --shapes .gpu/shapes/moved-49-pad-d-$l.txt
        B=.gpu/old/deepgemm-bench bench old-$l-$r $A --layout ${l^^} --pad 0,0,0,1 --shapes .gpu/shapes/moved-49-pad-d-$l.txt
    done
done
# The checks of the moved plans (float64 reference / cuBLASLt), once.
for l in tn nn tt nt; do
    bench chk-$l --iters 3 --warmup 1 --layout ${l^^} --pad 0,0,0,1 --shapes .gpu/shapes/moved-49-pad-d-$l.txt
    grep -c PASS "$OUT/chk-$l.txt"
done
