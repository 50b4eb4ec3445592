#!/usr/bin/env bash
# Session 18: an M-major A's L2 requests charged by its pitch like a K-major one's (session 17
# charged it as aligned), against the build before (HEAD~N), on random-k8 in NN, NT and TT and
# the aligned shapes it moves (NN 1000x3000x4000 128x192 -> 128x200, NT 2520x5767x2688).
#   Predicted (scripts/sweep-regret.py on 18e's NN sweeps: chosen/fastest 1.051 -> 1.021):
#   NN ~3% faster in geomean, its moved shapes 5-25% (3688x1336x4584 106.7 -> ~84 us,
#   4456x504x3080 37.7 -> ~30); NT and TT within 1%; NN 1000x3000x4000 within 2%.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh REV
#     there: bash scripts/gpu-session18f.sh (.gpu carried, ~320 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OLD_CACHE=$DEEPGEMM_CACHE_DIR  # the same kernels: one cache
precompile_all
OUT0=$OUT
for l in NN NT TT; do
    OUT=$OUT0/$l; mkdir -p $OUT
    alternate 2 --no-cublas --check none --layout $l --shapes .gpu/shapes/random-k8.txt
done
OUT=$OUT0/al; mkdir -p $OUT
alternate 2 --check sample --layout NN --shape 1000x3000x4000
OUT=$OUT0/al2; mkdir -p $OUT
alternate 2 --check sample --layout NT --shape 2520x5767x2688
OUT=$OUT0
for l in NN TT; do
    bench rk8-$l-vs-cublas --check sample --layout $l --shapes .gpu/shapes/random-k8.txt
done
(cd $OUT && for d in NN NT TT al al2; do for x in $d/*.txt; do mv $x ${d}_$(basename $x); done; rmdir $d; done)
finish
