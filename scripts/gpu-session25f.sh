#!/usr/bin/env bash
# Session 25 (~300 s): `25e` found deepgemm's 128x128 as slow at 2944x544x6528 (rows on the L2's
# lines: 51.0 us, tensor pipes 76% busy) as at k = 6480 (53.7), where cuBLASLt runs 32.5 and
# 32.7 (89%) with the same L2-to-SM bytes: not the lines' alignment. Hypothesis: the one-wave
# launch's CTAs move through k in step, so every CTA of a tile column asks L2 for the same B
# lines at once (23 of them here; cuBLASLt's 4 x 1 multicast asks once for 4). Experiment
# (`DG_ROTATE_K`, kernels/sm90/gemm.cuh): a whole tile's loads start at a k-iteration spread
# by its row and column. Both kernels alternating twice, deepgemm alone, sampled checks on.
#   Predicted: 2944x544x6528 51 -> 36-42 us; under-wave (one wave) a few % faster; set A
#   (several waves, L2 locality) within +-2%.
# Measured 1.26x slower on those shapes, set A 1.135x (BENCHMARKS.md): the experiment's kernel
# change was deleted. It was, in issue_loads (kernels/sm90/gemm.cuh) under #ifdef DG_ROTATE_K:
# for a whole-tile unit without multicast or split-K clusters, load_rot = (tile_row * max(1,
# k_iters / CTA rows) + tile_col * max(1, k_iters / CTA columns)) % k_iters, and each load's k0 =
# ((load_k + load_rot) mod k_iters) * BLOCK_K.
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session25f.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile _bf16_bf16_tn_ >/dev/null; echo "precompile ${SECONDS}s"
DEEPGEMM_NVRTC_DEFINES=DG_ROTATE_K "$B" --precompile _bf16_bf16_tn_ >/dev/null; echo "precompile rotate ${SECONDS}s"
for r in 1 2; do
    for set in rotate-25f worst-25b under-wave random-k8 set-a; do
        bench "$set-off-$r" --no-cublas --check sample --shapes .gpu/shapes/$set.txt
        DEEPGEMM_NVRTC_DEFINES=DG_ROTATE_K bench "$set-on-$r" --no-cublas --check sample --shapes .gpu/shapes/$set.txt
    done
done
finish
