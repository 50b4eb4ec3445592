#!/usr/bin/env bash
# Session 19, fifth call: the planner with Stream-K over multicast clusters, split-K-like
# schedules only (fewer row-pair tiles than clusters; `19e`'s one loss was a hybrid), against
# the commit before (6635db4), on every shape-layout whose plan moved (scripts/plan-diff.sh:
# 33 of them over random-k8, under-wave and the aligned sets), then float64-checked cluster
# Stream-K launches in every layout, epilogue and output type.
#   Predicted: the moved TT shapes 0.85-0.95 (19e), TN/NN 0.90-1.0 (19e's sweeps: 1528x896x14568
#   75 us against 82), NT like TT; none slower than 1.05.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh 6635db4
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
precompile_old m128n128k64_s6_c1x1,m128n128k64_s6_c2x1,m128n160k64_s5_c2x1,m128n184k64_s4_c1x1,m128n192k64_s4_c1x1,m128n192k64_s4_c2x1,m128n208k64_s4_c1x1,m128n240k64_s4_c1x1,m128n256k64_s4_c1x1,m128n64k64_s8_c1x1
OUT0=$OUT
for l in TN NN TT NT; do
    OUT=$OUT0/$l; mkdir -p $OUT
    alternate 2 --check sample --layout $l --shapes .gpu/shapes/moved-19f.txt
done
OUT=$OUT0
(cd $OUT && for d in TN NN TT NT; do for x in $d/*.txt; do mv $x ${d}_$(basename $x); done; rmdir $d; done)
for l in TN NN TT NT; do
    for e in "--epilogue default" "--epilogue gelu_bias" "--out fp32 --epilogue bias"; do
        DEEPGEMM_CLUSTER=2 DEEPGEMM_DECOMPOSITION=streamk bench "full-$l-${e//[ -]/}" --no-cublas --check full --layout $l $e --shape 300x520x4100 --shape 257x1000x3000 --shape 1000x136x2000 --shape 129x264x777
    done
done
finish
