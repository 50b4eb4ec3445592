#!/usr/bin/env bash
# Session 54, fourth call (~3 min): scripts/gpu-session51b.sh pack's `--offset` benches (owed
# since session 51; its gpu_pack and gpu_blas halves ran in session 53): views at an offset
# with the default 32 MiB of workspace (the slab blocks) against cuBLASLt, and the portable
# kernel they replaced. Predicted: blocks within ~10% of their model, 4-10x the portable kernel.
#     there: timeout 400 bash scripts/gpu-session54d.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OFF="--check sample --iters 10 --warmup 2 --shape 4096x4096x8192 --shape 8192x8192x8192 --shape 4096x14336x4096 --shape 2048x2048x2048"
bench offset-a $OFF --offset 1,0
bench offset-b $OFF --offset 0,3
bench offset-ab $OFF --offset 1,1
DEEPGEMM_KERNELS=portable bench offset-a-portable --no-cublas --check none --iters 3 --warmup 1 --shape 4096x4096x8192 --shape 8192x8192x8192 --offset 1,0
finish
