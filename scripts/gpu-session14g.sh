#!/usr/bin/env bash
# Session 14, main (4a224e3's kernels): PyTorch under the preload library, last run in
# session 5 (`scripts/preload/run.sh`: cuBLAS, preload cold, warm, off; outputs compared).
# Predicted: every output within tolerance, 100% of the supported calls substituted, the
# bf16/fp16 cases 0.95-1.05x cuBLAS (set A's kernels since session 5 are 2-5% faster), the
# fp32 exact case ~0.5x (portable FFMA by design).
#     here:  bash scripts/gpu-pack.sh; cargo build --release -p deepgemm-preload;
#            cp target/release/libdeepgemm_preload.so .gpu/ && strip .gpu/libdeepgemm_preload.so
#     there: bash scripts/gpu-session14g.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OUT="$OUT/preload" timeout 300 bash scripts/preload/run.sh "$PWD/.gpu/libdeepgemm_preload.so" >"$OUT/preload.txt" 2>&1
echo "preload rc=$? ${SECONDS}s"; tail -45 "$OUT/preload.txt"
(cd "$OUT" && tar czf logs.tgz --remove-files preload preload.txt)
