#!/usr/bin/env bash
# Owed by session 46 (~7 min): the whole gpu_matmul grid at main's default plans (sessions 45
# and 46 ran only its first 11 groups, 476 cases, before their limits: the machine compiled
# what their packs lacked), gpu_pack and gpu_blas; then the general sets that
# `plan::solo_for_short`'s full-ring tile moved (random-21d TN / NN, under-wave,
# small-mn-long-k, random-k8 NN) against cuBLASLt, one round, to replace the figures of
# sessions 24 / 41 that predate it at the moved shape-layouts.
#     here: CUBINS=all bash scripts/gpu-pack.sh    (every kernel: ~25 min on 2 cores the first
#           time, minutes after: .gpu-cubins/ is content-keyed; then no compile on the GPU)
#     there: timeout 560 bash scripts/gpu-session47a.sh; . scripts/gpu-env.sh; finish
# Session 47 carried no kernels (the pack's compile of all ~800 on 2 cores ran past 45 min):
# part 1 compiles them on the GPU machine (~150 s, 16 cores) into the session cache, which a
# warm machine keeps for part 2.
#     there: timeout 580 bash scripts/gpu-session47a.sh 1; . scripts/gpu-env.sh; finish
#            then timeout 300 bash scripts/gpu-session47a.sh 2; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
if [ "${1:-1}" = 1 ]; then
precompile_all
grid grid-default 300
# The direct full-ring solo cases (session 46 added four as solo_for_short plans them: C by TMA,
# C aliasing D, row-major D, a bias).
DEEPGEMM_SM90_VARIANTS=k128_s6_c1x1_w1,k128_s4_c1x1_w1 direct direct-full-ring 100
exit 0
fi
pack_and_blas 60 60
bench random-21d-tn --layout TN --shapes .gpu/shapes/random-21d.txt --check none
bench random-21d-nn --layout NN --shapes .gpu/shapes/random-21d.txt --check none
bench under-wave-tn --layout TN --shapes .gpu/shapes/under-wave.txt --check none
bench small-mn-long-k-tn --layout TN --shapes .gpu/shapes/small-mn-long-k.txt --check none
bench random-k8-nn --layout NN --shapes .gpu/shapes/random-k8.txt --check none
