#!/usr/bin/env bash
# Session 29 (~550 s; ~300 with the kernels carried): correctness of the two fp32-D changes together, each prepared earlier and
# never run: wip/f32-tma-store.patch (column-major fp32 D with beta = 0 through TMA stores,
# 64 x 16 buffers in the general staging's bytes) and wip/staged-columns-f32.patch (what stays
# staged, e.g. beta != 0, in 4-row items: whole 128-byte lines a store instruction; since this
# session only in rounds of 16 or 32 columns: with its 8-column tail rounds too, 248-wide fp32
# kernels spilled 64 bytes with both changes, tf32 NN 248 with the staged columns alone).
# All 295 fp32-out variants compile at 168 registers with no spills here (NVRTC 13.0.88).
#   1. Every direct nvrtc_sm90 case (8 new fp32 TMA-store cases: 256 / 248 / 176 / 168 / 64
#      wide, every epilogue, m = 280 and 300, n = 203, batches, fp16 and tf32 in).
#   2. The gpu_matmul grid (fp32 D with beta = 0 now TMA-stored; beta != 0, in place and ragged
#      m through the 4-row items), then forced onto Stream-K (owners' partials summed into the
#      fp32 boxes; staged owners in 4-row items).
#   Predicted: everything passes.
# The build (.gpu): main with both patches; old (.gpu/old): main; old2 (.gpu/old2): main with
# the staged columns alone. Timing on the same pack: scripts/gpu-session29b.sh.
#     here:  git apply wip/f32-tma-store.patch wip/staged-columns-f32.patch &&
#            CUBINS=all bash scripts/gpu-pack.sh && git checkout -- kernels src tests &&
#            CUBINS=_f32_ bash scripts/gpu-pack-old.sh HEAD &&
#            CUBINS=_f32_ bash scripts/gpu-pack-old.sh REV old2
#            (REV: HEAD with wip/staged-columns-f32.patch committed in a scratch worktree.
#            CUBINS: every kernel compiled here first, ~25 min on 2 cores, then carried
#            (~10 MB): precompile_all and the direct test's compiles cost ~250 s of this call
#            without it; left out, the script still runs, compiling there.)
#     there: bash scripts/gpu-session29a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
precompile_old _f32_ &
OLD_B=.gpu/old2/deepgemm-bench OLD_CACHE=/tmp/deepgemm-old2-cache precompile_old _f32_ &
direct || { wait; finish; exit 1; }
wait
grid grid 200 || { finish; exit 1; }
DEEPGEMM_DECOMPOSITION=streamk grid grid-streamk $((590 - SECONDS))
finish
