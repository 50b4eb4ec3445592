#!/usr/bin/env bash
# Session 36, call a (~9.5 min, cubins carried): a bias along n (PyTorch's nn.Linear(bias=True)
# computed transposed) on tiles up to 240 wide, each tile's bias staged as fp32 in shared memory
# (kernels/sm90/store.cuh `stage_bias_cols`) instead of loaded per fragment (35e's patch: ~20 us
# a launch), with C by TMA too (beta != 0); the 128 x 64 tiles' bias along n moved onto the same
# staging. Against b592ea4 (.gpu/old: the last GPU-run build; main's final commits changed no
# planned launch's SASS).
#   1. Every direct nvrtc_sm90 case (the staging changed the shared memory of every variant
#      that adds a bias along n, 128 x 64 included) and the whole gpu_matmul grid (new group
#      swapped_bias_on_wide_tiles: beta != 0, in place, device scalars). Predicted: all pass.
#   2. PyTorch's prefill linears with a bias (prefill-34): 14336x1024x4096 onto 128 x 224
#      transposed, predicted ~161 us (the plain launch's 159 + the staging) against ~174 (0.92
#      of the time, ~1.0x cuBLASLt).
#   3. Decode with a bias on 128 x 64 swapped (bias-col-34a): the same plans, the staging in
#      place of 16 loads a thread. Predicted within 1%.
#   4. Controls without a bias (4096^3, 14336x1024x4096): within 1%.
#   5. The 13 TN shape-layouts the planner moves with a bias (moved-35-biascol-tn): ~0.95.
#     here: CUBINS=all bash scripts/gpu-pack.sh; CUBINS=all bash scripts/gpu-pack-old.sh b592ea4
#     there: bash scripts/gpu-session36a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
save_kernels
precompile_old
direct || { finish; exit 1; }
grid grid 200
finish
pair pfb 1 --epilogue bias --shapes scripts/shapes/prefill-34.txt --iters 20
pair dec 1 --epilogue bias --shapes scripts/shapes/bias-col-34a.txt --iters 20
pair ctl 1 --shape 4096x4096x4096 --shape 14336x1024x4096 --iters 20
finish
pair btn 1 --epilogue bias --shapes scripts/shapes/moved-35-biascol-tn.txt
finish
