#!/usr/bin/env bash
# Prepared in session 18, not yet run: wip/cluster-start-every-cluster.patch (CLUSTER_START_S
# charged to clusters with an N-major B as well) against main, TT and NT.
#   Predicted (18e's TT sweeps, scripts/sweep-regret.py: chosen/fastest 1.045 -> 1.024): TT
#   random-k8 ~2% faster; the aligned TT/NT shapes moved off clusters within +-5% (session 10
#   measured clusters 1.06-1.34x faster at 1000x3000x4000 TT under the 256-byte promotion:
#   check those first).
#     here:  git apply wip/cluster-start-every-cluster.patch && bash scripts/gpu-pack.sh &&
#            git checkout src/plan/streamk.rs && bash scripts/gpu-pack-old.sh HEAD
#     there: bash scripts/gpu-session19a.sh (.gpu carried, ~300 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OLD_CACHE=$DEEPGEMM_CACHE_DIR  # the same kernels: one cache
precompile_all
OUT0=$OUT
for l in TT NT; do
    OUT=$OUT0/rk8-$l; mkdir -p $OUT
    alternate 2 --no-cublas --check none --layout $l --shapes .gpu/shapes/random-k8.txt
    OUT=$OUT0/moved-$l; mkdir -p $OUT
    alternate 2 --no-cublas --check sample --layout $l --shapes .gpu/shapes/moved-19a.txt
    OUT=$OUT0/tt3000-$l; mkdir -p $OUT
    alternate 2 --check sample --layout $l --shape 1000x3000x4000 --shape 3000x1000x4000
done
OUT=$OUT0
(cd $OUT && for d in rk8-TT moved-TT tt3000-TT rk8-NT moved-NT tt3000-NT; do for x in $d/*.txt; do mv $x ${d}_$(basename $x); done; rmdir $d; done)
finish
