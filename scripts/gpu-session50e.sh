#!/usr/bin/env bash
# Session 50, call e (~2 min): where GELU's 4.9% goes (50c: bias + GELU 4096x14336x4096 673.2 us
# against the plain GEMM's 641.9; cuBLASLt's GELU_BIAS costs it ~0). The TMA-store epilogue's
# GELU is 8 FP32 operations and one tanh.approx (MUFU) an element: ~2,300 and ~2,050 cycles of
# a 128x256 tile's 32,768 elements at 128 and 16 a cycle, against ~3,800 measured. Three
# builds of m128n256k64_s4_c1x1 (deepgemm alone, 3 rounds alternating): main; DG_GELU_FAST
# (the same function in 6 FP32 operations: no select for -inf, 0.5 folded); DG_GELU_NO_MUFU
# (the tanh replaced by an FP32 min: wrong values, timing only). Predicted: if the FP32 work
# paces it, FAST takes ~20% off GELU's cost and NO_MUFU little; if the MUFU does, FAST ~0 and
# NO_MUFU ~50%. 8192x8192x1024 (16 k-iterations a tile) shows the epilogue ~4x larger.
#     here:  bash scripts/gpu-pack.sh && cp /tmp/cubins50e.txz .gpu/cubins.txz
#            (gpu-cubins-defines.sh ... "-:N" "DG_GELU_FAST:N" "DG_GELU_NO_MUFU:N",
#            N = bf16_bf16_tn_m128n256k64_s4_c1x1)
#     there: timeout 580 bash scripts/gpu-session50e.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
A="--no-cublas --iters 30 --warmup 5 --check none --shape 4096x14336x4096 --shape 8192x8192x1024"
for r in 1 2 3; do
    bench plain-$r $A
    bench base-$r $A --epilogue gelu_bias
    DEEPGEMM_NVRTC_DEFINES=DG_GELU_FAST bench fast-$r $A --epilogue gelu_bias
    DEEPGEMM_NVRTC_DEFINES=DG_GELU_NO_MUFU bench nomufu-$r $A --epilogue gelu_bias
done
# The fast form's values: sample against float64 and cuBLASLt's GELU_BIAS / GELU.
DEEPGEMM_NVRTC_DEFINES=DG_GELU_FAST bench fastchk-gelu-bias --iters 5 --warmup 1 --epilogue gelu_bias --shape 4096x14336x4096 --shape 8192x8192x1024
DEEPGEMM_NVRTC_DEFINES=DG_GELU_FAST bench fastchk-gelu --iters 5 --warmup 1 --epilogue gelu --shape 4096x14336x4096
grep -h "PASS\|FAIL" "$OUT"/fastchk-*.txt | head
# Each build's instruction mix (the cache holds the three CUBINs).
for f in "$DEEPGEMM_CACHE_DIR"/*m128n256k64_s4_c1x1-*.cubin; do
    echo "== $(basename "$f"): $($(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump) -sass "$f" 2>/dev/null | grep -oE 'MUFU\.[A-Z0-9]+|FMNMX|FSETP|FSEL|FMUL|FFMA|F2FP[.A-Z0-9]*' | sort | uniq -c | tr '\n' ' ')"
done | tee "$OUT/sass.txt"
