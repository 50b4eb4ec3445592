#!/usr/bin/env bash
# Session 24 (~230 s): the reduce-scatter with per-member flags. `24g`'s traces put `24f`'s
# losses on the shared counter: its compare-and-swap arrivals took ~3,300 cycles with 6 CTAs
# contending, the finishers waited ~7,300 for the last, and the departure CAS sat at the end.
# Now every member raises its own flag (one release store, as the owner path's contributors),
# finishers mark theirs passed, the tile's last member clears them all.
#   1. Every direct nvrtc_sm90 case (scatter_cases now too). 2. DG_TRACE of both fixups on
#   `24g`'s two plans. 3. small-mn-long-k + the losers swept on 128x128 and 128x64, scatter off
#   then on. 4. The model's plans there, off / on alternating twice.
#   Predicted: all pass; the finishers' wait ~1,500 cycles after their own store; 416x568x8000
#   128x128 sk20x100 ~1.5-2 us faster than the owner path (21.6 us), 128x64 S = 3-6 within
#   +-0.5 us (two rounds only), 128x128 S >= 7 2-5 us faster.
#     here:  git apply wip/reduce-scatter.patch && bash scripts/gpu-pack.sh && git checkout kernels src tests;  there: bash scripts/gpu-session24h.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile _bf16_bf16_tn_ >/dev/null; echo "precompile tn ${SECONDS}s"
direct
for sc in 0 1; do
    DEEPGEMM_SCATTER=$sc DEEPGEMM_VARIANT=m128n64k64_s8_c1x1 trace "552x224x9216 n64 scatter=$sc" --shape 552x224x9216
    DEEPGEMM_SCATTER=$sc DEEPGEMM_VARIANT=m128n128k64_s6_c1x1 trace "416x568x8000 n128 scatter=$sc" --shape 416x568x8000
done
SETS="--shapes .gpu/shapes/small-mn-long-k.txt --shapes .gpu/shapes/losers-22d.txt"
for w in 128k64_s6 64k64_s8; do
    for sc in 0 1; do
        DEEPGEMM_SCATTER=$sc DEEPGEMM_VARIANT=m128n${w}_c1x1 timeout 100 "$B" --sweep --no-cublas --check none --iters 20 --warmup 3 \
            $SETS >"$OUT/sweep-n${w%%k*}-scatter$sc.txt" 2>&1
        echo "== sweep n${w%%k*} scatter=$sc rc=$? ${SECONDS}s"
    done
done
for r in 1 2; do
    DEEPGEMM_SCATTER=0 bench off-$r --no-cublas $SETS --check sample
    bench on-$r --no-cublas $SETS --check sample
done
finish
