#!/usr/bin/env bash
# Session 40, call g (~2 min; main's bench and kernels carried as for 40f). The shapes whose
# plan was 128x64 unsplit in the 40f sweeps (scripts/shapes/pp-40g-{tn,nt}.txt, 30 with both
# layouts), data-parallel on 128x64 (main's plan) and on the 64x128 ping-pong tile, alternating
# twice, deepgemm alone. Predicted from the sweeps: 64x128 ~0.986 of the time (21 of 30 faster).
#     there: bash scripts/gpu-session40g.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
export DEEPGEMM_DECOMPOSITION=dp
for r in 1 2; do
    for layout in TN NT; do
        l=$(tr 'A-Z' 'a-z' <<<"$layout")
        args=(--no-cublas --check none --layout $layout --shapes .gpu/shapes/pp-40g-$l.txt --iters 20 --warmup 3)
        DEEPGEMM_VARIANT=m128n64k64_s8_c1x1 bench $l-n64-$r "${args[@]}"
        DEEPGEMM_PINGPONG=1 DEEPGEMM_VARIANT=m64n128k64_s8_c1x1 bench $l-pp-$r "${args[@]}"
    done
done
finish
