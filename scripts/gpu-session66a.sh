#!/usr/bin/env bash
# Session 66 (~6-8 min): the split tail (`DEEPGEMM_DECOMPOSITION=tailsplit`,
# `streamk::tail_split`: data-parallel waves, the last partial wave's tiles split evenly in k)
# against data-parallel and all-Stream-K on the same kernels of the wave set (issue 4's target,
# owed on an H200 since session 62), its correctness (the bench's sample check: reference
# entries + a full comparison with cuBLASLt) on the wave set and on 40 fresh multi-wave shapes
# (scripts/shapes/multiwave-66.txt), and sweeps of every candidate of those 40 under auto, dp
# and tailsplit (the model's estimates next to the times: the data to charge the split tail).
# Predicted: 3200^2 on 128x256 ~212 us against ~249 data-parallel (2.5 tile times + a 2-way
# fixup against 3), 2176^2 on 128x256 (21 tiles 4 ways) ~1.5x data-parallel, 1664^2 on 128x128
# (37 tiles 2 ways) ~1.3x.
#     here:  bash scripts/gpu-pack.sh;   there: timeout 590 bash scripts/gpu-session66a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
"$B" --precompile "bf16_bf16_tn_m128n" >/dev/null; echo "precompile ${SECONDS}s"
S=.gpu/shapes/waves.txt
M=.gpu/shapes/multiwave-66.txt
DEEPGEMM_DECOMPOSITION=tailsplit bench chk-w-tailsplit --check sample --shapes $S
DEEPGEMM_DECOMPOSITION=tailsplit bench chk-mw-tailsplit --check sample --shapes $M
for r in 1 2; do
    for v in m128n256k64_s4_c1x1 m128n248k64_s4_c1x1 m128n128k64_s6_c1x1 m128n256k64_s4_c2x1; do
        for dec in dp streamk tailsplit; do
            DEEPGEMM_VARIANT=$v DEEPGEMM_DECOMPOSITION=$dec bench "w-$v-$dec-$r" --no-cublas \
                --check none --iters 20 --shapes $S
        done
    done
done
python3 "$(dirname "$0")/waves-table.py" "$OUT" | tee "$OUT/waves-table.txt"
bench w-main --check sample --shapes $S
sweep mw-auto 120 --shapes $M
DEEPGEMM_DECOMPOSITION=tailsplit sweep mw-tailsplit 120 --shapes $M
DEEPGEMM_DECOMPOSITION=dp sweep mw-dp 120 --shapes $M
finish
