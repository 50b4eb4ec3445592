#!/usr/bin/env bash
# Session 24 (~450 s): the reduce-scatter fixup (SM90_FLAG_SCATTER, plan::streamk::scatters:
# even splits of 3+ CTAs a tile on tiles 64+ wide). `24e`'s spans: the owners of 128x128 tiles
# split 5 and 11 ways end 4.7 and 10 us after their contributors.
#   1. Every direct nvrtc_sm90 case (scatter_cases: 3-16 CTAs a tile, 64-256 wide, both
#      fixups on each shape, random bytes in the workspace, the second run on the same epoch
#      after the partials are poisoned).
#   2. small-mn-long-k swept on 128x64 and 128x128 (every split), scatter off then on.
#   3. The model's plans on small-mn-long-k and the four losers, scatter off / on alternating
#      twice (only even splits of 3+ a tile move).
#   4. The gpu_matmul grid forced onto split-K (4 a tile where k allows: scatter on those).
#   Predicted: everything passes; 416x568x8000 on 128x128 sk20x100 22.0 -> 19.5-20 us;
#   600x240x16144 sk10x110 ~32 -> ~25; 128x64 even splits 0-1 us faster (2 rounds only);
#   the model's picks mostly unchanged (its narrow picks mostly cross tiles).
#     here:  git apply wip/reduce-scatter.patch && bash scripts/gpu-pack.sh && git checkout kernels src tests;  there: bash scripts/gpu-session24f.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile _bf16_bf16_tn_ >/dev/null; echo "precompile tn ${SECONDS}s"
direct
for w in 128k64_s6 64k64_s8; do
    for sc in 0 1; do
        DEEPGEMM_SCATTER=$sc DEEPGEMM_VARIANT=m128n${w}_c1x1 timeout 100 "$B" --sweep --no-cublas --check none --iters 20 --warmup 3 \
            --shapes .gpu/shapes/small-mn-long-k.txt --shapes .gpu/shapes/losers-22d.txt >"$OUT/sweep-n${w%%k*}-scatter$sc.txt" 2>&1
        echo "== sweep n${w%%k*} scatter=$sc rc=$? ${SECONDS}s"
    done
done
for r in 1 2; do
    DEEPGEMM_SCATTER=0 bench off-$r --no-cublas --shapes .gpu/shapes/small-mn-long-k.txt --shapes .gpu/shapes/losers-22d.txt --check sample
    bench on-$r --no-cublas --shapes .gpu/shapes/small-mn-long-k.txt --shapes .gpu/shapes/losers-22d.txt --check sample
done
DEEPGEMM_DECOMPOSITION=splitk timeout $((590 - SECONDS)) .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/grid-splitk.txt" 2>&1
echo "== grid splitk rc=$? ${SECONDS}s: $(groups "$OUT/grid-splitk.txt")"
finish
