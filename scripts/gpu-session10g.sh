#!/usr/bin/env bash
# Seventh GPU script of session 10, on branch next/gelu-tanh: the TMA-store epilogue's GELU
# (16-bit D) through one tanh.approx per element instead of ex2 + reciprocal. 10f: bias + GELU
# costs 5% over the plain GEMM at 4096x14336x4096 (~650 against ~617 us), before and after
# the epi-wait change alike: the special-function unit, ~4,000 cycles per 128x256 tile.
# Predicted: ~650 -> ~634 us (half the MUFU work). The direct nvrtc_sm90 cases first (their
# GELU cases with bf16 and fp16 D against float64, tolerance 1e-2).
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session10g.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile m128n256k64_s4_c1x1 >/dev/null
precompile_old m128n256k64_s4_c1x1
timeout 100 .gpu/tests/nvrtc_sm90 --ignored --test-threads=1 --nocapture >"$OUT/direct.txt" 2>&1
echo "nvrtc_sm90 rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/direct.txt")"; grep -m5 -E "FAIL|panicked" "$OUT/direct.txt"
S="--shape 4096x14336x4096 --shape 4096x4096x4096"
for i in 1 2; do
    bench gelu-new$i $S --epilogue gelu_bias --no-cublas
    bench_old gelu-main$i $S --epilogue gelu_bias --no-cublas
done
(cd "$OUT" && tar czf tests.tgz direct.txt && rm -f direct.txt)
