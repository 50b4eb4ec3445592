#!/usr/bin/env bash
# wip/store-warps.patch, call e (~5 min; the bf16 TN kernels carried as .gpu/cubins.txz, main's
# all as .gpu/old/cubins.txz). Call d: correct everywhere, but 1.013 of main's time on every
# third random-21d TN shape (short-k multi-tile ones up to 1.054), set A 1.003. The store warp
# handed each buffer back before taking the next order, so one box's stores read at a time;
# now box n's stores are issued before box n - 1's buffer is handed back.
#   1. The bf16 TN variants' direct cases (the barrier protocol changed; clusters included).
#   2. Timed against main: every third random-21d TN shape twice, set A once.
#      Predicted: random-21d 0.98-0.99 of main's time (short-k multi-tile shapes the most),
#      set A 0.99-1.00.
#     here: (branch) CUBINS=_bf16_bf16_tn_ bash scripts/gpu-pack.sh; main's pack in .gpu/old
#     there: bash scripts/gpu-store-warps-e.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_SM90_VARIANTS=_bf16_bf16_tn_ direct direct 150 || { finish; exit 1; }
r21d_third
pair r21d-tn 2 --layout TN --shapes .gpu/shapes/r21d-third.txt --iters 20 --warmup 3
pair seta 1 --shapes .gpu/shapes/set-a.txt --iters 20 --warmup 3
finish
