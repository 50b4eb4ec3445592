#!/usr/bin/env bash
# Session 43, call g (~6 min): two accumulator sets on alternate k16 slices (kDualAcc,
# kernels/sm90/gemm.cuh; measurement define DG_DUAL_ACC=64: the 128x64, 128x32 and solo 64x64
# tiles, split-K pairs and ring epilogues among them) against the one set, the same plans.
# `43f`'s reading: a warpgroup's wgmmas on one accumulator set are a dependent chain, and a
# 64-wide wgmma (~32 cycles of tensor work) is much shorter than its latency: the solo 64x64
# k-step ~460 cycles, cuBLASLt's 64x64 (two consumer warpgroups) ~310, tensor pipes 15% busy
# against cuBLASLt's 30% at 928x368x3968. Correct first (the direct cases of those variants
# under the define), then the bench with and without the define, alternating, two rounds.
# Predicted: launches on 128x64 / 128x32 / solo 64x64 plans 0.80-0.92 of the time; random-21d
# TN ~0.95 overall (its wider plans unchanged); moved-41s (short k) ~0.95.
#     here: gpu-pack.sh, then gpu-cubins-defines.sh with "-:<plans>" "DG_DUAL_ACC=64:<narrow>"
#     there: bash scripts/gpu-session43g.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
D=DG_DUAL_ACC=64
DEEPGEMM_NVRTC_DEFINES=$D DEEPGEMM_SM90_VARIANTS=bf16_bf16_tn_m128n64k64_s8_c1x1,bf16_bf16_tn_m128n32k64_s10_c1x1,bf16_bf16_tn_m64n64k64_s5_c1x1_w1,bf16_bf16_tn_m128n64k64_s7_c1x1_ks2,bf16_bf16_tn_m128n64k64_s9_c1x1_re \
    direct direct-dual 90 || { finish; exit 1; }
for r in 1 2; do
    chk=(--check none); [ $r = 1 ] && chk=()
    for set in under-wave small-mn-long-k moved-41s-tn random-21d; do
        A=(--layout TN --shapes .gpu/shapes/$set.txt --iters 20 --warmup 3)
        DEEPGEMM_NVRTC_DEFINES=$D bench "$set-dual-$r" "${A[@]}" "${chk[@]}" >/dev/null
        echo "$set-dual-$r: $(grep -c -- '-> PASS' "$OUT/$set-dual-$r.txt") PASS, $(grep -c -- '-> FAIL' "$OUT/$set-dual-$r.txt") FAIL"
        bench "$set-one-$r" "${A[@]}" --check none >/dev/null
    done
    echo "round $r ${SECONDS}s"
done
finish
