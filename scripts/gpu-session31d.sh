#!/usr/bin/env bash
# Session 31 (~200 s, on 31c's pack): beta = 1 against cuBLASLt in every layout (C through TMA
# reads C's boxes in D's layout whatever A's and B's; MN-major operands change only the
# mainloop), next to beta = 0 in the same call: random-k8 (40 shapes) TN, NN, TT, NT.
#   Predicted: beta 1 within 0.03 of beta 0's ratio in each layout (31c: random-21d TN 0.860
#   against 0.881), all checks passing.
#     there: bash scripts/gpu-session31d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
for l in TN NN TT NT; do
    bench vs-cublas-$l-beta1 --layout $l --beta 1 --check sample --shapes $S/random-k8.txt
    bench vs-cublas-$l-beta0 --layout $l --check sample --shapes $S/random-k8.txt
done
finish
