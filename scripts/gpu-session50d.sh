#!/usr/bin/env bash
# Session 50, call d (~8 min): the GPU test executables other than gpu_matmul and gpu_pack
# (which 50a ran: 1,811 / 0 and 10 / 0) at main; last run together in session 15 (`15g`).
# gpu_blas (the cuBLAS-style API), api_device (the C API on a device), registry (the per-device
# kernel registry across threads), gpu_harness (the bench's harness), gpu_multi (several
# devices / threads concurrently), gpu_autotune. Predicted: all pass.
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 580 bash scripts/gpu-session50d.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
for t in gpu_blas api_device registry gpu_harness gpu_multi gpu_autotune; do
    left=$((570 - SECONDS))
    [ $left -lt 20 ] && { echo "== $t skipped (time)"; continue; }
    timeout $((left < 120 ? left : 120)) .gpu/tests/$t --ignored --test-threads=1 --nocapture >"$OUT/$t.txt" 2>&1
    echo "== $t rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/$t.txt" | tail -1)"
done
