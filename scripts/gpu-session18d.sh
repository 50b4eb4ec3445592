#!/usr/bin/env bash
# Session 18: the L2 promotion rule on the layouts 18b did not run (NN: A M-major; NT, TT: B
# N-major) and on issue 4's 1000x3000x4000 (k = 4000: lines 64 bytes off the L2's, so its maps
# moved to the 128-byte promotion), against promotion 256 on the same build.
#   Predicted: NT/TT mid-sector shapes 5-15% faster (an N-major B's lines cost like a K-major
#   one's, session 17), NN 0-5% (an M-major A's misalignment measured 3-5%); 1000x3000x4000
#   within 1% (lines 64 bytes off: the 18b shapes of that class moved less than 2%).
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session18d.sh (.gpu carried, ~380 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
OUT0=$OUT
for l in NN NT TT; do
    OUT=$OUT0/$l; mkdir -p $OUT
    for r in 1 2; do
        bench rule-$r --no-cublas --check none --layout $l --shapes .gpu/shapes/random-k8.txt
        DEEPGEMM_L2_PROMOTION=256 bench p256-$r --no-cublas --check none --layout $l --shapes .gpu/shapes/random-k8.txt
    done
done
OUT=$OUT0
for l in TN NN; do
    for r in 1 2 3; do
        bench c-$l-rule-$r --check sample --layout $l --shape 1000x3000x4000
        DEEPGEMM_L2_PROMOTION=256 bench c-$l-p256-$r --check sample --layout $l --shape 1000x3000x4000
    done
done
# The general shapes in the other layouts against cuBLASLt (only TN tracked so far).
for l in NN TT; do
    bench rk8-$l-vs-cublas --check sample --layout $l --shapes .gpu/shapes/random-k8.txt
done
(cd $OUT && for d in NN NT TT; do for x in $d/*.txt; do mv $x ${d}_$(basename $x); done; rmdir $d; done)
finish
