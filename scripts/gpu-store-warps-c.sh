#!/usr/bin/env bash
# wip/store-warps.patch, call c (session 39, ~6 min): call a's direct cases stopped at 240 s
# after 162 passed, at the first cluster case (cluster_cases: 128x256 c2x1 TN 304x392x200).
#   1. The cluster variants' direct cases alone, 60 s: which hangs (each case
#      prints as it passes).
#   2. The unclustered 128x128 / 128x256 variants' direct cases, 120 s.
#   3. Timed against main with clusters off (DEEPGEMM_CLUSTER=1, both builds): every third
#      shape of random-21d TN and set A, one round each. Predicted (session 38): short-k
#      multi-tile shapes 3-8% faster, set A 1-2%.
#     here: as -a.sh; there: bash scripts/gpu-store-warps-c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_SM90_VARIANTS=_c2x1 direct direct-c2x1 60
DEEPGEMM_SM90_VARIANTS=m128n128k64_s6_c1x1,m128n256k64_s4_c1x1 direct direct-c1 120
export DEEPGEMM_CLUSTER=1
# Every third shape of random-21d (40): the call stays under the 10-minute limit.
grep -v '^#' .gpu/shapes/random-21d.txt | awk 'NR % 3 == 1' >.gpu/shapes/r21d-third.txt
pair r21d-tn 1 --layout TN --shapes .gpu/shapes/r21d-third.txt --iters 20 --warmup 3
pair seta 1 --shapes .gpu/shapes/set-a.txt --iters 20 --warmup 3
finish
