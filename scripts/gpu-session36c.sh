#!/usr/bin/env bash
# Session 36, call c (~9.5 min): 36a again after `stage_bias_cols` lost its loop over tid. In
# 36a that loop (divergent) made ptxas keep the persistent loop's pipeline state in vector
# registers in every instantiation of the variants that add a bias along n (R2UR 56 -> 554 at
# 128x128): 128x128 with a bias along m ran 6-7% slower than b592ea4 (12288x512x4096 83.8 us
# against 79.0), the plain 128x224 transposed 1.7%. With a compile-time trip count the SASS
# counts are back at b592ea4's (R2UR 56 / 64, 71 / 71 at 128x224).
#   1. Every direct case and the whole gpu_matmul grid. Predicted: all pass.
#   2. prefill-34 with a bias, two rounds: 14336x1024x4096 ~161 us against ~175; the direct
#      128x128 launches within 1% of b592ea4 (36a: 6-7% over).
#   3. Controls without a bias, two rounds: within 1%.
#   4. Decode with a bias on 128 x 64 (bias-col-34a): within 1%.
#     here: bash scripts/gpu-pack.sh (.gpu/old from 36a kept, with old/names.txt)
#     there: bash scripts/gpu-session36c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
save_kernels
precompile_old "$(cat .gpu/old/names.txt)"
direct || { finish; exit 1; }
grid grid 200
finish
pair pfb 2 --epilogue bias --shapes scripts/shapes/prefill-34.txt --iters 20
pair ctl 2 --shape 4096x4096x4096 --shape 14336x1024x4096 --iters 20
pair dec 1 --epilogue bias --shapes scripts/shapes/bias-col-34a.txt --iters 20
finish
