#!/usr/bin/env bash
# Session 21, part 2 (speed): clusters along n (1 x 2, 1 x 4; wip/cluster-n.patch, correct in
# `21a`: direct cases, the grid forced onto each schedule 1,458 / 0) planned by the model with
# their start charged 1 us (CLUSTER_N_START_S, fitted to `21a`'s sweeps). Every shape-layout
# whose plan moved (scripts/shapes/moved-21b-{tn,nn,tt,nt}.txt: 77, plan-diff against 8f19ac3)
# against 8f19ac3, alternating twice, cuBLASLt alongside; then every candidate of the small-m
# and small-n sets (TN) swept, for refitting where the decode moves lose.
#   Predicted: under-wave / k-alignment moves TN 0.90-0.97 of the old time (336x1912x1544
#   15.4 -> ~13.3 us, 504x808x10584 34.3 -> ~30.5); the decode-like moves (M or N = 64, 128
#   with the 32/64-wide tiles in 1 x 2: A streamed once a cluster instead of once a tile
#   column) unknown: 0.85-1.10; NN/TT/NT like TN.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh 8f19ac3
#     there: bash scripts/gpu-session21b.sh (~350 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
precompile_old
alternate_moved 2 moved-21b --check sample
for s in small-m small-n; do
    timeout 150 "$B" --sweep --no-cublas --check sample --iters 20 --warmup 3 --shapes .gpu/shapes/$s.txt >"$OUT/sweep-$s.txt" 2>&1
    echo "== sweep $s rc=$? ${SECONDS}s"
done
finish
