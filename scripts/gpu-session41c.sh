#!/usr/bin/env bash
# Session 41, call c (~7 min): the solo tiles (one consumer warpgroup, 64-row tiles, 256
# threads, two CTAs an SM; `sm90::SOLO_TILES_N`, kernels/sm90/gemm.cuh `kSolo`), planned only
# under DEEPGEMM_SOLO=1. First correct: their direct cases, then the gpu_matmul grid with solo
# wherever one takes the problem. Then what they are worth: every solo candidate (64x64 and
# 64x128, data-parallel) timed against the default plan (what main ships; the new build's
# default plans are main's) in the same call on the general sets.
# Predicted: solo's best beats the default plan on shapes with fewer tiles of 128 rows than
# SMs and a short or middling k (random-21d's smaller half, under-wave: 0.85-0.95 of the
# time), and loses on shapes that already fill the SMs (1.05-1.3x).
#     here: CUBINS=all bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session41c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_SM90_VARIANTS=_w1 direct direct-solo 200 || { finish; exit 1; }
# Timings before the grid: what a call cut short by its device time most needs.
for set in random-21d under-wave small-mn-long-k; do
    bench "$set-tn" --layout TN --shapes .gpu/shapes/$set.txt --iters 20 --warmup 3 --check none
    DEEPGEMM_SOLO=1 sweep "$set-tn-solo" 150 --layout TN --shapes .gpu/shapes/$set.txt
done
DEEPGEMM_SOLO=1 grid grid-solo 90
bench random-21d-nt --layout NT --shapes .gpu/shapes/random-21d.txt --iters 20 --warmup 3 --check none
DEEPGEMM_SOLO=1 sweep random-21d-nt-solo 150 --layout NT --shapes .gpu/shapes/random-21d.txt
finish
