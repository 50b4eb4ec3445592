#!/usr/bin/env bash
# wip/store-warps.patch, call b (~7 min; call a's kernels carried as .gpu/cubins.txz, main's as
# .gpu/old/cubins.txz): the epilogue traced box by box, then timed against main.
# Predicted (session 38's traces: a box ~500 cycles, ~150 of them waiting for the buffer, the
# rest the two barriers and the issuing thread): a box ~150-250 cycles where its buffer is
# free (tiles up to 128 wide never wait within a tile), the boxes of a 128x256 tile ~1.0-1.3k
# cycles instead of ~2.9k; timed, short-k multi-tile shapes 3-8% faster, set A 1-2% faster,
# one-tile-a-CTA shapes unchanged.
#     here: (patched) CUBINS=all bash scripts/gpu-pack.sh; CUBINS=all bash scripts/gpu-pack-old.sh
#     main old (both from .gpu-cubins/)
#     there: bash scripts/gpu-store-warps-b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
for s in 4096x4096x4096 2680x1544x768 2024x2568x640 1568x2416x800; do
    trace "$s" --shape "$s"
    B=$OLD_B DEEPGEMM_CACHE_DIR=$OLD_CACHE trace "old $s" --shape "$s"
done
DEEPGEMM_VARIANT=m128n128k64_s6_c1x1 trace "n128 2048x2048x2048" --shape 2048x2048x2048
pair r21d-tn 2 --layout TN --shapes .gpu/shapes/random-21d.txt --iters 20 --warmup 3
pair r21d-nt 1 --layout NT --shapes .gpu/shapes/random-21d.txt --iters 20 --warmup 3
pair seta 2 --shapes .gpu/shapes/set-a.txt --iters 20 --warmup 3
finish
