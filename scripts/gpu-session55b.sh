#!/usr/bin/env bash
# Prepared in session 55 (no device lent), one call (~6-8 min; pack main first): every
# configuration a configured algo (deepgemmLtMatmulAlgoInit + ConfigSetAttribute) can name on
# seven small problems (bf16 / fp16 -> fp32 / tf32, every transpose, bias, GELU + bias, ReLU +
# bias, row-major D, beta 0.5): each distinct configuration of the problem's universe
# (`plan::configured_universe`: ping-pong, solo, 128-deep, ring-epilogue kernels, clusters,
# split-K and Stream-K schedules, both orientations: ~150 kernels the heuristic mostly never
# lists) run through deepgemmLtMatmul and checked against the float64 reference.
# Predicted: all pass (each kernel family was GPU-tested under its forcing switch before:
# ping-pong session 41, solo 41/47, 128-deep 45; not every schedule x kernel pair was).
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 590 bash scripts/gpu-session55b.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
# Every kernel into the run's cache on all cores first (gpu-env.sh's `precompile_all`).
precompile_all
timeout 300 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture every_configuration \
    >"$OUT/gpu_matmul-every-configuration.txt" 2>&1
echo "== every_configuration rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/gpu_matmul-every-configuration.txt")"
grep -m12 -E "FAIL|panicked|configurations|run$" "$OUT/gpu_matmul-every-configuration.txt"
finish
