#!/usr/bin/env bash
# Session 33, call b (~5 min): programmatic dependent launch, the checks 33a could not make.
#   1. `back_to_back_dependent_calls`, now enqueueing every call before computing its reference
#      (33a's computed each step between the calls, so no kernel overlapped the next and its
#      DG_PDL_NO_WAIT control passed) and replaying the chain from a CUDA graph too: predicted
#      to pass with PDL (default) and with DEEPGEMM_PDL=0, and to FAIL on the DG_PDL_NO_WAIT
#      build (griddepcontrol.wait dropped: the test catches the race).
#   2. gpu_pack (pack kernels ahead of a programmatically launched GEMM) and gpu_blas: pass.
#   3. Host time a call (cuLaunchKernelEx with the attribute against cuLaunchKernel before):
#      predicted within 0.3 us of session 15's 7.33 / 6.23 us.
#     here:  CUBINS=all bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session33b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
b2b() {
    timeout 120 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture back_to_back >"$OUT/$1.txt" 2>&1
    echo "== $1 rc=$? ${SECONDS}s: $(groups "$OUT/$1.txt")"
    grep -E "largest error|FAIL|panicked" "$OUT/$1.txt" | cut -c1-220 | head -8
}
precompile_all
b2b b2b-pdl
DEEPGEMM_PDL=0 b2b b2b-pdl0
DEEPGEMM_NVRTC_DEFINES=DG_PDL_NO_WAIT b2b b2b-nowait
finish
timeout 150 .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture >"$OUT/pack.txt" 2>&1
echo "== gpu_pack rc=$? ${SECONDS}s: $(groups "$OUT/pack.txt")"
timeout 120 .gpu/tests/gpu_blas --ignored --test-threads=1 --nocapture >"$OUT/blas.txt" 2>&1
echo "== gpu_blas rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/blas.txt")"
finish
for r in 1 2; do
    timeout 100 .gpu/deepgemm-bench --host-overhead >"$OUT/host-pdl-$r.txt" 2>&1
    DEEPGEMM_PDL=0 timeout 100 .gpu/deepgemm-bench --host-overhead >"$OUT/host-pdl0-$r.txt" 2>&1
done
tail -6 "$OUT"/host-*.txt
finish
