#!/usr/bin/env bash
# Prepared in session 26, not yet run (~220 s), main's build: what the staged epilogue costs by
# tile width. It runs 8 columns a round on widths not a multiple of 16 (31 rounds at 248, 8 at
# 256: kernels/sm90/epilogue.cuh `Rounds`), and every launch that cannot TMA-store takes it (fp32
# out, beta != 0, a D TMA cannot address); the model charges every tile's epilogue 0.6 us
# (`EPILOGUE_S`) either way. `26f` saw short-k launches 1.7-1.96x slower with a few tiles a
# launch on it.
#   1. --sweep of the model's candidates on scripts/shapes/staged-27d.txt with fp32 D (staged
#      epilogue) and with bf16 D (TMA store), deepgemm alone.
#   2. The model's plans against cuBLASLt there, fp32 D.
#   3. Decode with 2-16 rows (scripts/shapes/decode-27d.txt, swapped onto n16 tiles: 0-14 of a
#      16-row B box out of bounds), deepgemm alone, twice: `26c` measured the zero fill on
#      128-row boxes only (32 rows out ~1%, 64 13%, 96 29%), which cannot tell a cost by rows
#      left out from one by the box's fraction.
#   Predicted: with fp32 D the odd-8 widths (248, 232, 200, 184, 168, 136) run 1.3-2x their
#   bf16 time and lose their rank to 128x256 / 128x192 / 128x128; cuBLASLt ahead by 1.2-1.8x
#   on fp32 D where the bf16 plans are near even. Decode: 2-16 rows within 3% of each other
#   (weights-bound; a cost by rows left out, under 64 here).
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session27d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes/staged-27d.txt
for out in fp32 same; do
    timeout 150 "$B" --sweep --no-cublas --check none --iters 20 --warmup 3 --out $out --shapes $S >"$OUT/sweep-$out.txt" 2>&1
    echo "== sweep out=$out rc=$? ${SECONDS}s"
done
bench vs-cublas-fp32 --out fp32 --check sample --shapes $S
for r in 1 2; do
    bench "decode-$r" --no-cublas --check none --shapes .gpu/shapes/decode-27d.txt
done
finish
