#!/usr/bin/env bash
# Session 17, branch next/ring-epilogue rebased on main (L2-request model): ring-epilogue
# variants only for a K-major A (NN measured 12% slower in 17b) and ranked 1% ahead of their
# plain twins (RING_EPILOGUE_FACTOR), which moves 38 TN and 10 TT shapes of the shape sets onto
# them (scripts/shapes/ring-tn.txt, ring-tt.txt). Deepgemm alone, this build and main's
# alternating twice, then once against cuBLASLt with sampled checks.
# Predicted: TN 0-5% faster each (1000x3000x4000 ~2%, 448x4480x4608 ~5%), none more than 1%
# slower; TT unmeasured before (expected like TN); every check passes.
#     here:  git checkout next/ring-epilogue && bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session17e.sh  (.gpu carried, ~250 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OLD_CACHE=$DEEPGEMM_CACHE_DIR  # main's kernels are a subset: one cache
precompile_all
DEEPGEMM_SM90_VARIANTS=_re direct || { finish; exit 1; }
for l in TN TT; do
    F=.gpu/shapes/ring-$(echo $l | tr A-Z a-z).txt
    alternate 2 --no-cublas --check none --layout $l --shapes $F
    for r in 1 2; do mv "$OUT/new-$r.txt" "$OUT/$l-new-$r.txt"; mv "$OUT/old-$r.txt" "$OUT/$l-old-$r.txt"; done
    bench $l-vs-cublas --check sample --layout $l --shapes $F
done
finish
