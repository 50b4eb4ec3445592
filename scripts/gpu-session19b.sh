#!/usr/bin/env bash
# Prepared in session 18, not yet run: wip/split-n-64.patch, 64-row tiles whose two consumers
# each compute half of the columns (kernels/sm90/gemm.cuh `kSplitN`; `SPLIT_N_TILES_N`
# 64x{64,128,192,224,256}, TN/NN, 16-bit; planned only under DEEPGEMM_SPLITN=1).
#   1. The direct cases of the split-N variants (correctness first: the script stops there).
#   2. The whole gpu_matmul grid under DEEPGEMM_SPLITN=1 (every problem a split-N tile takes),
#      then forced onto Stream-K (DEEPGEMM_DECOMPOSITION=streamk).
#   3. Every split-N candidate of the under-wave shapes timed (--sweep under DEEPGEMM_SPLITN=1)
#      next to main's choice and cuBLASLt (main's build: the same binary without the env).
#   Predicted: under a wave with a short k, 64x128 split-N ~1.3-1.6x faster than the ping-pong
#   64x128 (18c: one consumer busy) and 5-20% faster than main's 128-row plans where those
#   leave SMs idle (264x1168x2424: 57 CTAs of 128x64, 16.6 us; 64x64 split-N: 95 tiles).
#     here:  git apply wip/split-n-64.patch && bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session19b.sh (.gpu carried, ~550 s: split it if the device allows less)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_SM90_VARIANTS=_sn direct || { finish; exit 1; }
precompile_all
DEEPGEMM_SPLITN=1 timeout 300 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/grid-splitn.txt" 2>&1
echo "grid split-N: $(groups "$OUT/grid-splitn.txt") ${SECONDS}s"
# Their Stream-K fixup (each consumer's partial is 64 x block_n / 2).
DEEPGEMM_SPLITN=1 DEEPGEMM_DECOMPOSITION=streamk timeout 300 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/grid-splitn-sk.txt" 2>&1
echo "grid split-N Stream-K: $(groups "$OUT/grid-splitn-sk.txt") ${SECONDS}s"
bench main-vs-cublas --check sample --shapes .gpu/shapes/under-wave.txt
DEEPGEMM_SPLITN=1 timeout 150 "$B" --sweep --no-cublas --check sample --iters 20 --warmup 3 --shapes .gpu/shapes/under-wave.txt >"$OUT/sweep-splitn.txt" 2>&1
echo "== sweep split-N rc=$? ${SECONDS}s"
grep -E "^\[|sweep #" "$OUT/sweep-splitn.txt" | sed -e 's/deepgemm first call.*heuristic [0-9.]* ms, //' -e 's/(vs the timed.*//' -e 's/dg_sm90_bf16_bf16_tn_//' | grep -v portable | cut -c1-100
finish
