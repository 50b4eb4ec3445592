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
# The random-k8 shapes furthest under cuBLASLt (0.63-0.73 in 17d): every candidate timed against
# the model, to see which of them the model misranks.
timeout 150 "$B" --sweep --no-cublas --check none --iters 20 --warmup 3 --shape 1184x808x7832 --shape 632x2104x13544 --shape 2536x360x6744 --shape 1240x1440x1816 --shape 3688x1336x4584 --shape 7944x640x8520 --shape 272x5392x12360 --shape 480x1488x6224 >"$OUT/sweep.txt" 2>&1
echo "== sweep rc=$? ${SECONDS}s"
grep -E "^\[|sweep #" "$OUT/sweep.txt" | sed -e 's/deepgemm first call.*heuristic [0-9.]* ms, //' -e 's/(vs the timed.*//' -e 's/dg_sm90_bf16_bf16_tn_//' | grep -v portable | cut -c1-110
finish
