#!/usr/bin/env bash
# wip/store-warps.patch with session 40's fix, call d (~9 min; patched kernels carried as
# .gpu/cubins.txz, main's as .gpu/old/cubins.txz). Session 39's hang at the first cluster case:
# the producer warps' role came from a full-mask __shfl_sync run by lanes 1-31 of warp 0 in the
# branch thread 0 left, so they waited for thread 0, which (clusters only) waited for them at
# the final cluster_sync. Now read while the warpgroup is converged.
#   1. Every direct nvrtc_sm90 case (predicted: all pass, the c2x1 ones no longer hang), the
#      grid, the grid on Stream-K (owners' fixup through the same epilogue), gpu_pack, gpu_blas.
#   2. Timed against main: every third random-21d TN shape and set A, one round each.
#      Predicted (session 38): short-k multi-tile shapes 3-8% faster, set A 1-2%.
#     here: (branch with the patch) CUBINS=all bash scripts/gpu-pack.sh; main's pack in .gpu/old
#     there: bash scripts/gpu-store-warps-d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
direct direct 200 || { finish; exit 1; }
grid grid 120
DEEPGEMM_DECOMPOSITION=streamk grid grid-streamk 90
pack_and_blas 60 40
r21d_third
pair r21d-tn 1 --layout TN --shapes .gpu/shapes/r21d-third.txt --iters 20 --warmup 3
pair seta 1 --shapes .gpu/shapes/set-a.txt --iters 20 --warmup 3
finish
