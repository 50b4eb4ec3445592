#!/usr/bin/env bash
# Prepared in session 27, not yet run (~420 s): the sets whose figures against cuBLASLt
# session 27's two kernel changes (edge tiles moved inside, 32-column staged rounds) left
# stale, each in its own log (`27c` ran them in one and lost the TN split): random-21d and
# random-k8 (TN), under-wave, small-mn-long-k, small-N, small-M, the cliffs (scripts/shapes/
# cliffs.txt, with 160 MiB of workspace and with PyTorch's 32, the bench's default) and the
# wave set in TN.
#   Predicted (session 24's figures, then the `27b` gains on top): random-21d 0.868 -> ~0.885,
#   random-k8 TN 0.927 -> ~0.94, under-wave 0.874 and small-mn-long-k 0.807 within 1%
#   (few ragged tiles of 64+), small-N 1.059 and small-M 1.065 unchanged (narrow tiles: no 64
#   overhang); the cliffs: their D's leading dimension is odd (4095, 4097, 4100: no TMA store),
#   so they take the staged epilogue, 128x208 now in 6 x 32 + 16 columns (7 rounds, was 13 of
#   16): 4095³ and 4100³ 2-5% faster than session 15's (75% / 68% of 4096³'s rate -> ~78% /
#   ~70%), 4097³ ~4.5x cuBLASLt, 127x4095x4096 ~3.2x and 1000x3000x4000 ~0.97x unchanged.
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session28c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
"$B" --precompile _bf16_bf16_ >/dev/null; echo "precompile ${SECONDS}s"
# Session 28 ran it in one call with 28b: small-N and the wave set (27c: 0.979) left out for time.
for set in random-21d random-k8 under-wave small-mn-long-k small-m; do
    bench "vs-cublas-$set" --check sample --shapes $S/$set.txt
done
for ws in 160 32; do
    bench "vs-cublas-cliffs-$ws" --iters 10 --warmup 2 --check sample --workspace-mib $ws --shapes $S/cliffs.txt
done
finish
