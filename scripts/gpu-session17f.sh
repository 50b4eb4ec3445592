#!/usr/bin/env bash
# Session 17, branch next/sk-small-fixup (on main with ring epilogues): a Stream-K launch whose
# split tiles are at most one a CTA and whose operands fit in the L2 (A + B <= 30 MB) is charged
# the split-K fixup (measured 3-5.4 us on tiles up to 64 wide) instead of the Stream-K one
# (~14-24 us): 17e's sweep had 480x1488x6224 on 128x96 sk64x128 at 25.8 us against its model
# 33.8, where the data-parallel 128x64 plan taken ran 31.6 (model 25.9).
# Also: the ring-epilogue direct cases as merged (two moved from TT to TN, not yet run).
# Predicted: direct passes; of under-wave.txt's 24 shapes the 6 whose plan changes run 10-20%
# faster (480x1488x6224-like), the others unchanged; new against cuBLASLt reported.
# Result (BENCHMARKS.md session 17): 2 of the 6 changed plans ran 4% slower (uneven splits,
# sk42x126 and sk45x132 over 128x128); the sweeps showed even splits (CTAs a multiple of the split
# tiles) 14-24% faster than main's plans, so the rule merged charges the split-K fixup only to
# even splits (ranges within tiles), which picks only plans these sweeps timed.
#     here:  git checkout next/sk-small-fixup && bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session17f.sh  (.gpu carried, ~250 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OLD_CACHE=$DEEPGEMM_CACHE_DIR  # the same kernels: one cache
precompile_all
DEEPGEMM_SM90_VARIANTS=_re direct
F=.gpu/shapes/under-wave.txt
alternate 2 --no-cublas --check none --shapes $F
bench new-vs-cublas --check sample --shapes $F
timeout 100 "$B" --sweep --no-cublas --check none --iters 20 --warmup 3 --shape 936x312x8952 --shape 504x808x10584 --shape 432x1736x5600 --shape 864x736x4704 --shape 352x1888x5904 --shape 368x384x3952 >"$OUT/sweep.txt" 2>&1
echo "== sweep rc=$? ${SECONDS}s"
grep -E "^\[|sweep #" "$OUT/sweep.txt" | sed -e 's/deepgemm first call.*heuristic [0-9.]* ms, //' -e 's/(vs the timed.*//' -e 's/dg_sm90_bf16_bf16_tn_//' | grep -v portable | cut -c1-100
finish
