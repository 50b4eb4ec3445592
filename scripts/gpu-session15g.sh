#!/usr/bin/env bash
# Session 15, main's final code: the GPU suites that go through gemm::run (reorganised this
# session: every block's launches prepared before the first is enqueued) besides gpu_matmul
# (15c): every gpu_pack group (the slab cases now with strided batches, GELU with a bias and
# tf32), the handle API (gpu_blas), the device-side API checks, autotuning, the harness; then
# PyTorch under the preload library (outputs against cuBLAS's).
# Predicted: everything passes; the preload table as session 14's (its cases have aligned
# leading dimensions, so no slab plans).
#     here:  bash scripts/gpu-pack.sh; cargo build --release -p deepgemm-preload;
#            cp target/release/libdeepgemm_preload.so .gpu/ && strip .gpu/libdeepgemm_preload.so
#     there: bash scripts/gpu-session15g.sh  (.gpu carried, ~400 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
timeout 170 .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture >"$OUT/pack.txt" 2>&1
echo "gpu_pack rc=$? ${SECONDS}s: $(groups "$OUT/pack.txt")"; grep -E "^test result" "$OUT/pack.txt"
for t in gpu_blas api_device gpu_autotune gpu_harness registry; do
    timeout 60 .gpu/tests/$t --ignored --test-threads=1 --nocapture >"$OUT/$t.txt" 2>&1
    echo "$t rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/$t.txt" | tail -1)"
done
mkdir -p "$OUT/preload"
OUT="$OUT/preload" timeout 150 bash scripts/preload/run.sh "$PWD/.gpu/libdeepgemm_preload.so" >"$OUT/preload.txt" 2>&1
echo "preload rc=$? ${SECONDS}s"; tail -30 "$OUT/preload.txt"
finish preload
