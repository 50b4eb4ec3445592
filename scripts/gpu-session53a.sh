#!/usr/bin/env bash
# Session 53, first call (~9 min): what sessions 51-52 owed, in one machine start.
#   1. scripts/gpu-session52a.sh (the tma-phase probe). Prediction revised in session 53: FAIL
#      (CUDA_ERROR_ILLEGAL_INSTRUCTION at the first box whose start is off the 16-byte grid):
#      sessions 9 (`next/residue`) and 14 (`next/row-classes`) measured exactly that, which
#      session 52 had not looked up. Session 53 took DEEPGEMM_TMA_SHIFT out on that record.
#   2. gpu_pack and gpu_blas without the switch (51b `pack`: blocks at misaligned base
#      addresses, SetWorkspace, math mode). Predicted: all pass.
#   3. precompile_all; GELU checks TT / NT (51a). Predicted: all PASS.
#   4. Set A's plain launches against a172e77, two rounds (51a). Predicted 0.995-1.005.
#   5. save_kernels for the next call (the grid).
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh a172e77
#     there: timeout 590 bash scripts/gpu-session53a.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
bash scripts/gpu-session52a.sh
echo "probe: $(grep -c PASS "$OUT/tma-phase.txt") PASS, $(grep -c FAIL "$OUT/tma-phase.txt") FAIL ${SECONDS}s"
pack_and_blas 150 120
grep -m5 -E "FAIL|panicked" "$OUT/gpu_pack.txt" "$OUT/gpu_blas.txt"
precompile_all
gelu_checks TT NT
precompile_old bf16_bf16_tn_m128n256k64_s4_c1x1,bf16_bf16_tn_m128n176k64_s5_c1x1,bf16_bf16_tn_m128n240k64_s4_c1x1
A="--no-cublas --iters 30 --warmup 5 --check none --shapes .gpu/shapes/set-a.txt"
for r in 1 2; do
    bench new-$r $A
    bench_old old-$r $A
done
save_kernels
finish
