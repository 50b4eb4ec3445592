#!/usr/bin/env bash
# Session 25 (~330 s). Build: dc2fac1 plus clusters of 1 x 2 / 1 x 4 on 128-wide tiles
# (`CLUSTER_N_TILES_N`), planned by the model where `streamk::cluster_n_pays` allows (as the 64-
# and 96-wide ones). Old: 6b9f19f (the same plans but the 19 shape-layouts below).
#   1. The gpu_matmul grid forced onto the 128-wide 1 x 4 and 1 x 2 (data-parallel, their only
#      planned schedule). Predicted: all pass (`25c`: their direct cases passed).
#   2. The 19 shape-layouts the model moves onto them over random-21d, random-k8, under-wave,
#      kalign, small-mn and worst-25b in TN / NN / TT, both builds alternating twice. Predicted
#      ~0.95 of the time before: `25c` timed 1 x 4 at 416x3696x1832 swapped 0.86 and
#      3840x984x1080 0.92 of main's, 704x2368x2536 1.03.
# The build: dc2fac1 with wip/cluster-n-128.patch applied.
#     here:  git apply wip/cluster-n-128.patch && bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh 6b9f19f
#     there: bash scripts/gpu-session25d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OLD_CACHE=$DEEPGEMM_CACHE_DIR # the same kernels
"$B" --precompile _bf16_bf16_tn_,_bf16_bf16_tt_,_bf16_bf16_nn_,n128k64_s6_c1x >/dev/null; echo "precompile ${SECONDS}s"
for c in 1x4 1x2; do
    DEEPGEMM_LOG_LEVEL=3 DEEPGEMM_LOG_FILE=/tmp/plans-$c.log DEEPGEMM_CLUSTER=$c DEEPGEMM_VARIANT=n128k64_s6_c$c \
        timeout 170 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/grid-c$c.txt" 2>&1
    echo "grid c$c: $(groups "$OUT/grid-c$c.txt") ${SECONDS}s; 128-wide c$c launches logged: $(grep -c "n128k64_s6_c$c.*clusters of" /tmp/plans-$c.log)"
    grep -q "^test result: ok" "$OUT/grid-c$c.txt" || { finish; exit 1; }
done
LAYOUTS="TN NN TT" alternate_moved 2 moved-25d --no-cublas --check none
finish
