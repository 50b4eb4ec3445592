#!/usr/bin/env bash
# Sixth GPU script of session 10, on main: did the epi-wait epilogue (ea685e1) slow the fused
# bias + GELU? 10e measured it 5% over the plain GEMM at 4096x14336x4096 (635.6 against 603.3
# us; session 5 had measured 0.5%). The SASS of both versions computes each box's GELU before
# its first barrier, so no loss is expected: main and 11a096d (before the change, .gpu/old),
# deepgemm alone, alternating twice, plain and gelu_bias. Then the wave and tiny sets against
# cuBLASLt if the time allows.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh 11a096d
#     there: bash scripts/gpu-session10f.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile m128n256k64_s4_c1x1 >/dev/null
precompile_old m128n256k64_s4_c1x1
S="--shape 4096x14336x4096 --shape 4096x4096x4096"
for i in 1 2; do
    bench gelu-new$i $S --epilogue gelu_bias --no-cublas
    bench_old gelu-old$i $S --epilogue gelu_bias --no-cublas
    bench plain-new$i $S --no-cublas
    bench_old plain-old$i $S --no-cublas
done
bench waves --shapes .gpu/shapes/waves.txt
