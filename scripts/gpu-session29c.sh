#!/usr/bin/env bash
# Session 29 (~300 s): wip/cluster-fill-96-112.patch, the fill widths 112 and 96 in clusters of
# 2 with B multicast, as 144-240 are since session 17 (each CTA's share of B, 56 or 48 rows,
# keeps whole 1024-byte swizzle periods: the kernel's rule). 18 variants, 168 registers, no
# spills. cuBLASLt runs 2944x544x6528 on 128x112 in clusters of 4 x 1 at 32.4 us; deepgemm's
# unclustered 128x112 ran 39.0 (`27b`). The model moves 12 shape-layouts onto them
# (scripts/shapes/moved-29c-{tn,nn}.txt) but not 2944x544, where it puts 128x112 at 61 us.
#   1. Correct: the direct cases of clusters of 2 (5 new ones on 112 / 96), then the gpu_matmul
#      grid on those two widths alone in clusters of 2 (every case they take runs clustered).
#   2. The moves, this build against main alternating twice, deepgemm alone.
#   3. One-wave shapes forced data-parallel onto 128x112 unclustered and in clusters of 2 (this
#      build only: main has no 112 cluster): 2944x544x6528 / 6480, 2232x288x4256, 3128x544x2720.
#   4. The TN moves against cuBLASLt.
#   Predicted: everything passes; the moves 0.95-1.02 of main's time; 2944x544x6528 on 128x112
#   ~39 us unclustered, ~35 in clusters of 2 (B's L2 reads halved: ~160 of ~355 MB -> ~80). If
#   so, the model's 61 us for 128x112 there (its cluster charge and mainloop efficiency) is what
#   to refit next.
# The build: main with the patch applied; old: main.
#     here:  git apply wip/cluster-fill-96-112.patch && CUBINS=n112k,n96k bash scripts/gpu-pack.sh &&
#            git checkout -- src tests && CUBINS=n112k,n96k,n128k,n144k bash scripts/gpu-pack-old.sh HEAD
#     there: bash scripts/gpu-session29c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile n112k,n96k >/dev/null &
precompile_old n112k,n96k,n128k,n144k &
wait; echo "precompiled ${SECONDS}s"
DEEPGEMM_SM90_VARIANTS=_c2x1 direct || { finish; exit 1; }
DEEPGEMM_VARIANT=n112k,n96k DEEPGEMM_CLUSTER=2 grid grid-c2-112-96 200 || { finish; exit 1; }
alternate_moved 2 moved-29c --no-cublas --check none
for s in 2944x544x6528 2944x544x6480 2232x288x4256 3128x544x2720; do
    for c in c1x1 c2x1; do
        DEEPGEMM_VARIANT=m128n112k64_s6_$c DEEPGEMM_DECOMPOSITION=dp \
            bench "forced-$s-$c" --no-cublas --check sample --shape $s
    done
done
bench vs-cublas-moved-tn --check sample --shapes .gpu/shapes/moved-29c-tn.txt
finish
