#!/usr/bin/env bash
# Session 77's first call on a machine: what is owed on a GPU at `70a5df2`, in order of age.
# (1) The handle's default workspace after session 76's review fixes (`gpu_blas
# gemm_ex_default_workspace` and `_threads`, the second never run; the first try in session 76
# spent its 120 s compiling, so 200). (2) deepgemmGemmBatchedEx on the portable kernel's
# pointer-array form (`gpu_blas gemm_batched_ex`, 48 specs x in-order and reversed arrays,
# and since session 78 a k = 0 spec a type with NULL arrays for A and B, which the kernel read
# before session 78's fix: an illegal address).
# (3) scripts/gpu-session77b.sh: the NN column-split tiles, checked forced and timed on the 21
# NN shapes their switch moves, and (session 78) the same in TT, which is NN transposed (12
# moves). Predicted: (1) and (2) pass; (3) as its header says.
#     here:  CUBINS="_pp,_cs,$(paste -sd, scripts/shapes/names-78b.txt)" bash scripts/gpu-pack.sh
#     there: DEADLINE=<seconds> timeout 590 bash scripts/gpu-session77c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEADLINE=${DEADLINE:-560}
nvidia-smi -L
blas_test() {
    local name=$1 secs=$2
    timeout "$secs" .gpu/tests/gpu_blas --ignored --test-threads=1 --nocapture "$name" >"$OUT/blas-$name.txt" 2>&1
    echo "gpu_blas $name rc=$? ${SECONDS}s: $(grep -E '^(group|test result)' "$OUT/blas-$name.txt" | tr '\n' ' ')"
    grep -m6 -E "FAIL|panicked" "$OUT/blas-$name.txt"
}
# BLAS_SECS: the first test's limit (its compiles), default 200; both capped by what DEADLINE
# leaves (a minute kept for what follows), skipped under 20 s.
cap() { local m=$((DEADLINE - SECONDS - 60)); [ "$m" -lt "$1" ] && echo "$m" || echo "$1"; }
s=$(cap "${BLAS_SECS:-200}"); [ "$s" -ge 20 ] && blas_test gemm_ex_default_workspace "$s"
s=$(cap 100); [ "$s" -ge 20 ] && blas_test gemm_batched_ex "$s"
# (2b, session 78) The bulk-copy packer probe (scripts/probes/bulk-pack.cu, ~1 min with its
# build): whether idle producer warps could hide 4095³'s copies under the GEMM; its header has
# the prediction and the threshold (~1.9 TB/s with ~16 KiB staged an SM).
if [ $((DEADLINE - SECONDS)) -gt 200 ] && [ -z "${SKIP_PROBE:-}" ]; then
    NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    "$NVCC" -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I kernels -I scripts/probes \
        scripts/probes/bulk-pack.cu -o /tmp/bulk-pack 2>&1 | grep -v "^$" | tail -5
    timeout 120 /tmp/bulk-pack >"$OUT/bulk-pack.txt" 2>&1
    echo "=== bulk-pack probe rc=$? ${SECONDS}s"
    cat "$OUT/bulk-pack.txt"
fi
DEADLINE=$((DEADLINE - SECONDS)) bash "$(dirname "$0")/gpu-session77b.sh"
