#!/usr/bin/env bash
# Session 33, call c (~4 min): programmatic dependent launch, the negative control made to fail
# cleanly, and PyTorch's forward passes under the preload.
#   1. `back_to_back_dependent_calls` on the DG_PDL_NO_WAIT build forced data-parallel (33b's
#      control hung in its first case, a split plan: the next kernel's flags overwrote the
#      running one's): predicted to FAIL with errors of order 1 (stale operands read).
#   2. scripts/preload/pdl_chain.py (8 chained 4096^2 linears; 4 MLP blocks 4096-14336-4096,
#      M = 1, 16, 128, 1024): cuBLAS, the preload with PDL, the preload with DEEPGEMM_PDL=0,
#      twice in turn. Predicted: PDL on 0.5-1 us a GEMM under PDL off where launches are short
#      (M <= 128: 4-8 us a forward of the chain), nothing at M = 1024.
#     here:  CUBINS=all bash scripts/gpu-pack.sh && cargo build --release -p deepgemm-preload &&
#            cp target/release/libdeepgemm_preload.so .gpu/ && strip .gpu/libdeepgemm_preload.so
#     there: bash scripts/gpu-session33c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
DEEPGEMM_DECOMPOSITION=dp DEEPGEMM_NVRTC_DEFINES=DG_PDL_NO_WAIT timeout 60 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture back_to_back >"$OUT/b2b-nowait-dp.txt" 2>&1
echo "== b2b DG_PDL_NO_WAIT dp rc=$? ${SECONDS}s: $(groups "$OUT/b2b-nowait-dp.txt")"
grep -E "largest error" "$OUT/b2b-nowait-dp.txt" | cut -c1-200 | head -8
DEEPGEMM_DECOMPOSITION=dp timeout 60 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture back_to_back >"$OUT/b2b-dp.txt" 2>&1
echo "== b2b dp (control) rc=$? ${SECONDS}s: $(groups "$OUT/b2b-dp.txt")"
finish
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:$LD_LIBRARY_PATH"
P=scripts/preload/pdl_chain.py
for r in 1 2; do
    timeout 90 python3 $P cublas-$r >>"$OUT/torch.txt" 2>&1
    LD_PRELOAD=$PWD/.gpu/libdeepgemm_preload.so timeout 90 python3 $P pdl-$r >>"$OUT/torch.txt" 2>&1
    DEEPGEMM_PDL=0 LD_PRELOAD=$PWD/.gpu/libdeepgemm_preload.so timeout 90 python3 $P nopdl-$r >>"$OUT/torch.txt" 2>&1
    echo "round $r ${SECONDS}s"
done
cat "$OUT/torch.txt" | grep -v "^\s*$" | head -60
finish
