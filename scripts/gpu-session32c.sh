#!/usr/bin/env bash
# Session 32, call c (~300 s; kernels carried for these shapes only: scripts/gpu-cubins-defines.sh).
# Build: main + the refit of `d_pays` (src/plan/pack.rs) + the DG_EARLY_ISSUE diagnostic order
# and trace marks 7-8 (kernels/sm90/gemm.cuh; without the define the SASS is main's, checked
# here on six variants).
#   1. D's copy by the refit model, against the other choice forced (two rounds, 160 MiB):
#      4097^3 and 4100^3 now through the copy (208 wide, 13 rounds), 4095^3 in place,
#      1264x1032x8416 with D's ld + 1 through the copy (176 wide). Predicted: the model's choice
#      the faster one each time; 4097^3 ~255 us, 4100^3 ~252.
#   2. A launch's prologue traced (DG_TRACE: marks 7 descriptors prefetched, 8 stage barriers
#      initialised, 5 fenced, 6 schedule made, 4 first stage issued), in main's order and with
#      DG_EARLY_ISSUE (stage 0's barriers, then its loads, then the rest): 128^3, 512^3,
#      1x4096x4096, 4096^3.
#   3. The 115 launch-cost shapes (scripts/shapes/launch-cost-32c.txt), deepgemm alone, main's
#      order against DG_EARLY_ISSUE, alternating twice. Predicted: the first stage issued
#      ~500 cycles sooner where the barrier inits cost that; small launches 0.97-0.99 of the
#      time, large ones 1.00.
#     here:  bash scripts/gpu-pack.sh, then scripts/gpu-cubins-defines.sh for these kernels (under
#            none, DG_EARLY_ISSUE, DG_TRACE and DG_TRACE,DG_EARLY_ISSUE); DG_EARLY_ISSUE measured
#            no gain (0.998) and was removed after this call (in git at `823c569`)
#     there: bash scripts/gpu-session32c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
V="--no-cublas --workspace-mib 160 --check sample --iters 30"
for r in 1 2; do
    bench model-$r $V --shape 4097x4097x4097 --shape 4100x4100x4100 --shape 4095x4095x4095
    bench model-pad-$r $V --pad 0,0,0,1 --shape 1264x1032x8416
    DEEPGEMM_PACK_D=0 bench forced0-$r $V --shape 4097x4097x4097 --shape 4100x4100x4100
    DEEPGEMM_PACK_D=0 bench forced0-pad-$r $V --pad 0,0,0,1 --shape 1264x1032x8416
    DEEPGEMM_PACK_D=1 bench forced1-$r $V --shape 4095x4095x4095
done
for s in 128x128x128 512x512x512 1x4096x4096 4096x4096x4096; do
    trace "main $s" --shape $s
    TRACE_DEFINES=DG_EARLY_ISSUE trace "early $s" --shape $s
done
for r in 1 2; do
    bench lc-main-$r --no-cublas --check sample --shapes $S/launch-cost-32c.txt
    DEEPGEMM_NVRTC_DEFINES=DG_EARLY_ISSUE bench lc-early-$r --no-cublas --check sample --shapes $S/launch-cost-32c.txt
done
finish
