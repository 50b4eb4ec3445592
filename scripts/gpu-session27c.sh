#!/usr/bin/env bash
# Prepared in session 26, not yet run (~250 s): if `27a` and `27b` say wip/edge-tiles-64.patch
# goes to main, the figures against cuBLASLt at the merged build for README and BENCHMARKS.md
# (each with cuBLASLt in the same run, sampled checks): worst-25b, random-21d (TN), random-k8
# (TN, NN, TT), set-a, waves.
#   Predicted: random-21d 0.868 -> ~0.88, random-k8 TN 0.927 -> ~0.94, worst-25b up ~10%
#   (2944x544x6480 0.66 -> ~0.85), set-a 0.995 and waves 0.960 within 1%.
#     here:  bash scripts/gpu-pack.sh (the merged main);  there: bash scripts/gpu-session27c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
"$B" --precompile _bf16_bf16_ >/dev/null; echo "precompile ${SECONDS}s"
bench vs-cublas-tn --check sample --shapes $S/worst-25b.txt --shapes $S/random-21d.txt --shapes $S/random-k8.txt \
    --shapes $S/set-a.txt --shapes $S/waves.txt
for l in NN TT; do
    bench "vs-cublas-$l" --layout $l --check sample --shapes $S/random-k8.txt
done
finish
