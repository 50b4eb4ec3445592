#!/usr/bin/env bash
# Session 43, call a (~9 min): solo tiles in multicast clusters (`wip/solo-clusters.patch`:
# `Sm90Variant::with_solo_cluster`, `sm90::SOLO_CLUSTERS` 2 x 1, 1 x 2, 2 x 2, 1 x 4; the
# kernel's multicast path unchanged, its solo assert relaxed), planned only under
# DEEPGEMM_SOLO=1 (DEEPGEMM_CLUSTER picks the shape). Correct first: every direct solo case
# (the new cluster cases among them), then the gpu_matmul grid forced onto solo 2 x 2 where it
# takes the problem. Then what they are worth: every solo candidate of each cluster shape
# (`--sweep`) against the default plan in the same call, on the sets where the 128-row tiles
# leave SMs idle or split (under-wave, small-mn-long-k, TN; random-21d in call b).
# Predicted: a solo 64x64 tile in 2 x 2 reads about a 128x128 tile's L2 bytes a multiply (B
# shared by 2, A by 2), so the 2-2.5x losses of session 41 on long k shrink to 1.0-1.2x, and
# the best clustered solo candidate beats the default plan on under-wave and small-mn-long-k
# (oracle 0.90-0.95 of the plan's time), not on random-21d's larger half.
#     here: git apply wip/solo-clusters.patch; CUBINS=all bash scripts/gpu-pack.sh
#           (every sm90 kernel's cache key changes with gemm.cuh: ~20 min on 2 cores)
#     there: bash scripts/gpu-session43a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_SM90_VARIANTS=_w1 direct direct-solo 200 || { finish; exit 1; }
DEEPGEMM_SOLO=1 DEEPGEMM_CLUSTER=4 grid grid-solo-c2x2 60
for set in under-wave small-mn-long-k; do
    bench "$set-tn" --layout TN --shapes .gpu/shapes/$set.txt --iters 20 --warmup 3 --check none
    for c in 4 2 1x2 1x4; do
        DEEPGEMM_SOLO=1 DEEPGEMM_CLUSTER=$c sweep "$set-tn-solo-c$c" 30 --layout TN --shapes .gpu/shapes/$set.txt
    done
done
finish
