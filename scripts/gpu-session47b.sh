#!/usr/bin/env bash
# Session 47, call b (~6 min): the 128-deep solo tiles under Stream-K / split-K
# (`DEEPGEMM_SOLO_SK=1`: kernels/sm90/gemm.cuh schedules solo tiles with BLOCK_K = 128 as the
# cooperative ones; src/plan/streamk.rs gives them those decompositions). Built from the
# worktree branch `solo-sk` and carried as .gpu-b (moved to .gpu first).
# Correct first: the gpu_matmul grid with solo tiles forced onto Stream-K and split-K; then every
# full-ring solo 64x64 schedule swept (DEEPGEMM_VARIANT=k128_s6_c1x1_w1) on small-mn-long-k,
# under-wave and random-21d TN, the default plans of the same build in the same call.
# Predicted: the best split full-ring 64x64 at ~1.1x the default plan's time on
# small-mn-long-k (a 64x64 k-step costs ~0.87 of a 128x64 one for half the product), ahead
# (0.85-0.95) only where 128-row tiles pad m or n by a third or more.
#     there: rm -rf .gpu && mv .gpu-b .gpu && timeout 560 bash scripts/gpu-session47b.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile "k128_s6_c1x1_w1,k128_s4_c1x1_w1,k128_s2_c1x1_w1,k128_s3_c1x1_w1,$(cat scripts/shapes/kernels-47b.txt)" >/dev/null
echo "precompile ${SECONDS}s"
solo() { export DEEPGEMM_SOLO=1 DEEPGEMM_DEEP=1 DEEPGEMM_SOLO_SK=1; }
(solo; DEEPGEMM_DECOMPOSITION=streamk grid grid-solo-streamk 110)
(solo; DEEPGEMM_DECOMPOSITION=splitk grid grid-solo-splitk 70)
for s in small-mn-long-k under-wave; do
    (solo; DEEPGEMM_VARIANT=k128_s6_c1x1_w1 sweep $s-solo-sk 50 --layout TN --shapes .gpu/shapes/$s.txt --seed 47)
    bench $s-default --layout TN --shapes .gpu/shapes/$s.txt --seed 47
done
(solo; DEEPGEMM_VARIANT=k128_s6_c1x1_w1 sweep random-21d-solo-sk 100 --layout TN --shapes .gpu/shapes/random-21d.txt --seed 47)
bench random-21d-default --layout TN --shapes .gpu/shapes/random-21d.txt --seed 47 --check none
