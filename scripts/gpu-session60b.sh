#!/usr/bin/env bash
# Session 60, second call (~6 min): the fixup's wider batches (`dec38fe`: a Stream-K owner
# sums 4 contributors' partials a batch where its accumulators take at most 64 registers, 8 of
# 8 registers on 128x16; was 2 past 32). Correct first: the direct cases of the changed tiles
# (96, 112, 128 wide, 128x16), the gpu_matmul grid forced onto Stream-K; then 60a's c1x1
# sweeps again (per-contributor cost: 60a measured ~3 us a contributor on 128x128 splits).
# Predicted: all pass; the c1x1 splits with 5+ contributors a tile 2-4 us faster, more with
# more contributors.
#     here:  bash scripts/gpu-pack.sh; bash scripts/gpu-pack-old.sh HEAD~1; rm -rf .gpu/tests/{gpu_multi,gpu_autotune,registry,api_device}
#     there: timeout 560 bash scripts/gpu-session60b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_SM90_VARIANTS="n96k,n112k,n128k,n16k" direct direct 240 || { finish; exit 1; }
DEEPGEMM_DECOMPOSITION=streamk grid grid-streamk 170
S="--shape 536x232x13832 --shape 600x240x16144 --shape 1000x344x11120"
DEEPGEMM_VARIANT=m128n128k32_s6_c1x1 sweep c1x1-tf32 60 --interleave --iters 12 --dtype tf32 --layout NN $S
DEEPGEMM_VARIANT=m128n128k64_s6_c1x1 sweep c1x1-bf16 60 --interleave --iters 12 --layout TN $S
finish
