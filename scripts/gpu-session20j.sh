#!/usr/bin/env bash
# Session 20: decode shapes (M = 1 and 16 of the small-M set) swept under the model's list and
# the forced split-K and Stream-K lists (every candidate timed, deepgemm alone, L2 flushed).
# `20i` (Nsight Compute) found 1x4096x4096's 128x16 split-K pairs on 64 CTAs busy 22.6k
# cycles at most but 10.7k on average over the SMs (13.9 us), where cuBLASLt's 64x8 tiles
# split in 2 keep 128 CTAs busy 16.8k on average (11.8 us). Session 6 found more CTAs no faster
# (`6c`), on kernels since changed.
#   Predicted: the forced lists' 128-CTA splits 5-15% faster than the pairs at 4096x4096 and
#   2112x7168 (operands under 64 MB), equal on the larger ones.
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session20j.sh (~150 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
grep -E '^(1|16)x' .gpu/shapes/small-m.txt > /tmp/decode.txt
for dec in auto splitk streamk; do
    DEEPGEMM_DECOMPOSITION=$dec timeout 150 "$B" --sweep --no-cublas --check sample --iters 20 --warmup 3 --shapes /tmp/decode.txt >"$OUT/sweep-decode-$dec.txt" 2>&1
    echo "== sweep $dec rc=$? ${SECONDS}s"
done
finish
