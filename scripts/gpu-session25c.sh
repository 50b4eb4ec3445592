#!/usr/bin/env bash
# Session 25 (~420 s). Build: 634287a (lines 32 / 96 bytes into an L2 line cost 2.0 requests)
# plus clusters of 1 x 4 / 1 x 2 on 128-wide tiles (`CLUSTER_N_TILES_N`), which the model does
# not plan yet (`cluster_n_pays` stops at 96; DEEPGEMM_CLUSTER forces them): its plans are
# 634287a's. Old: 6b9f19f (main before the line refit).
#   1. The direct nvrtc_sm90 cases of every cluster along n (6 new ones on 128 wide).
#   2. The 36 shape-layouts the line refit moved, both builds alternating twice (deepgemm
#      alone). Predicted 0.97-0.99 of the time before: 2944x544x6480 55.3 -> ~43.3 us (its
#      `25b` sweep), the tile-width shifts within +-3%.
#   3. 1 x 4 on 128 wide (cuBLASLt's answer on 2944x544x6480: 128x112 in clusters of 4 x 1, 2.49M
#      L2 requests against deepgemm's 4.44M, 32.4 us against 51.9) swept on worst-25b and
#      random-21d TN (every such candidate, swapped or not), next to this build's own plans in
#      the same call. Predicted 2944x544x6480 swapped ~36-40 us; wins where many tile rows
#      share few tile columns of an operand whose lines are off the L2's.
# Ran at 634287a with wip/cluster-n-128.patch applied (634287a was reverted by dc2fac1 after it).
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh 6b9f19f
#     there: bash scripts/gpu-session25c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OLD_CACHE=$DEEPGEMM_CACHE_DIR # the same kernels
"$B" --precompile _bf16_bf16_tn_,_bf16_bf16_tt_,_bf16_bf16_nn_ >/dev/null; echo "precompile ${SECONDS}s"
DEEPGEMM_SM90_VARIANTS=_c1x direct || { finish; exit 1; }
LAYOUTS="TN NN TT" alternate_moved 2 moved-25a --no-cublas --check none
for run in worst-25b-1 worst-25b-2 random-21d-1; do
    set=${run%-*}
    bench "main-$run" --no-cublas --check none --shapes .gpu/shapes/$set.txt
    DEEPGEMM_CLUSTER=1x4 DEEPGEMM_VARIANT=m128n128k64_s6_c1x4 timeout 200 "$B" --sweep --no-cublas --check none \
        --iters 20 --warmup 3 --shapes .gpu/shapes/$set.txt >"$OUT/sweep-c1x4-$run.txt" 2>&1
    echo "== sweep c1x4 $run rc=$? ${SECONDS}s"
done
finish
