#!/usr/bin/env bash
# Session 65 (~1.5 min): PyTorch under the preload at the session's final library (owed since
# session 62's run): every output within tolerance, >= 90% of supported-type calls substituted.
#     here:  bash scripts/gpu-pack.sh && cargo build --release -p deepgemm-preload &&
#            cp target/release/libdeepgemm_preload.so .gpu/ && strip .gpu/libdeepgemm_preload.so
#     there: timeout 300 bash scripts/gpu-session65h.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
mkdir -p "$OUT/preload"
OUT="$OUT/preload" timeout 200 bash scripts/preload/run.sh "$PWD/.gpu/libdeepgemm_preload.so" >"$OUT/preload.txt" 2>&1
echo "preload rc=$? ${SECONDS}s"; tail -24 "$OUT/preload.txt"
finish preload
