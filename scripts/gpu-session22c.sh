#!/usr/bin/env bash
# Session 22, two parts in one call:
#   1. main's (.gpu/old) candidate sweeps of scripts/shapes/small-mn-long-k.txt (24 random shapes,
#      m and n 96-1024, k 2048-16384, TN): the model's own list with cuBLASLt alongside, and each
#      of the 128x64, 128x96 and 128x128 tiles alone (data-parallel, split over k 2-16 ways),
#      deepgemm alone. Where
#      random-21d's worst ratios sat (256x288x7224: 23.3 us against cuBLASLt's 12.6, on 128x16
#      sk36x72): which existing plans are fastest there, and how far off the model is.
#      Predicted: the model's picks run 20-50% over their estimates; some 96-128 wide split-K
#      plan beats the model's pick by >10% on a third of the shapes.
#   2. wip/dp-fixed-cost.patch (.gpu) against main (.gpu/old) on every shape-layout it moves
#      (scripts/shapes/moved-22a-*; LAYOUTS picks the layouts: "TN NN" was run, "TT NT" never
#      was). The patch was merged, changed, at cc00c6e and deleted: this part no longer rebuilds.
#     here:  git apply wip/dp-fixed-cost.patch && bash scripts/gpu-pack.sh && git checkout src
#            && bash scripts/gpu-pack-old.sh HEAD
#     there: SWEEP=1 LAYOUTS="TN NN" bash scripts/gpu-session22c.sh; LAYOUTS="TT NT" bash ...
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
precompile_old
if [ "${SWEEP:-0}" = 1 ]; then
    f=.gpu/shapes/small-mn-long-k.txt
    DEEPGEMM_CACHE_DIR=$OLD_CACHE timeout 150 "$OLD_B" --sweep --check sample --iters 20 --warmup 3 --shapes $f >"$OUT/sweep-smallmn-main.txt" 2>&1
    echo "== sweep main rc=$? ${SECONDS}s"
    for w in 64k64_s8 96k64_s6 128k64_s6; do
        DEEPGEMM_VARIANT=m128n${w}_c1x1 DEEPGEMM_CACHE_DIR=$OLD_CACHE timeout 100 "$OLD_B" --sweep --no-cublas --check none --iters 20 --warmup 3 --shapes $f >"$OUT/sweep-smallmn-n${w%%k*}.txt" 2>&1
        echo "== sweep n${w%%k*} rc=$? ${SECONDS}s"
    done
fi
alternate_moved 2 moved-22a --check sample
finish
