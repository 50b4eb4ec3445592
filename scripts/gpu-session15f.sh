#!/usr/bin/env bash
# Session 15: 127x4095x4096 ran 20.4-20.7 us in 15e against 19.4 in session 14 (its D, ld 127,
# takes the staged epilogue down the columns that 15a and 15b changed). Same-run comparison of
# main (new), the session's start f2c3c84 (old) and 069598b (ilp: 15a's change alone) on the
# shapes whose column-major D TMA cannot store, deepgemm alone, plus the host time per call
# (gemm::run now prepares launches before enqueueing: 64x64x64 --host-overhead).
# Predicted: within 1% of each other on the large shapes as 15a/15b measured; if 127x4095x4096
# is slower on new than old, the per-call host path or the lean loop costs it.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh f2c3c84 && bash scripts/gpu-pack-branch.sh 069598b ilp
#     there: bash scripts/gpu-session15f.sh  (.gpu carried, ~200 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S="--shape 127x4095x4096 --shape 1001x776x1032 --shape 4095x4096x4096 --shape 50257x2048x768 --shape 1000x3000x4000 --no-cublas --check none --iters 30 --warmup 5"
ilp() { B=.gpu/ilp/.gpu/deepgemm-bench DEEPGEMM_CACHE_DIR=/tmp/ilp-cache bench "$@"; }
for i in 1 2; do
    bench new-$i $S
    bench_old old-$i $S
    ilp ilp-$i $S
done
bench host-new --host-overhead
bench_old host-old --host-overhead
tail -5 "$OUT/host-new.txt"
tail -5 "$OUT/host-old.txt"
finish
