#!/usr/bin/env bash
# Session 33, call d (~5 min, the kernels of prefetch-33's plans carried under three define sets):
# the first stages asked of L2 ahead of griddepcontrol.wait (DG_PDL_PREFETCH=N: the first unit's
# first N stages, a measurement build) against main's kernels, all with PDL on.
#   1. `back_to_back_dependent_calls` on the DG_PDL_PREFETCH=1000 build: predicted to pass (a
#      prefetch only reads into L2, the point of coherence).
#   2. Back to back (--chain 20) on scripts/shapes/prefetch-33.txt, main / N = 4 / N = 1000 in
#      turn, twice. Predicted: decode and small-m shapes (weights from DRAM each launch) ~1 us
#      faster with N = 1000, ~0.5 with N = 4; tiny shapes (operands in L2) unchanged.
#   3. With the L2 flushed (the bench's default), main / N = 1000: predicted within 1% (the wait
#      returns at once, so the prefetches only go just ahead of the loads).
#   4. scripts/preload/pdl_chain.py under the preload, main / N = 4 / N = 1000, twice: predicted
#      the chains at M <= 128 ~1 us a GEMM faster with N = 1000.
#     here:  bash scripts/gpu-pack.sh && cp CUBINS .gpu/cubins.txz && cp the preload .gpu/
#            (CUBINS: gpu-cubins-defines.sh with "-:N" "DG_PDL_PREFETCH=4:N" "DG_PDL_PREFETCH=1000:N",
#            N the bf16 TN kernels `deepgemm-bench --plans` picks for prefetch-33.txt)
#     there: bash scripts/gpu-session33d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
DEEPGEMM_NVRTC_DEFINES=DG_PDL_PREFETCH=1000 timeout 90 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture back_to_back >"$OUT/b2b-pf.txt" 2>&1
echo "== b2b DG_PDL_PREFETCH=1000 rc=$? ${SECONDS}s: $(groups "$OUT/b2b-pf.txt")"
finish
C="--chain 20 --iters 20 --warmup 2 --check none --shapes $S/prefetch-33.txt"
for r in 1 2; do
    bench chain-main-$r $C
    DEEPGEMM_NVRTC_DEFINES=DG_PDL_PREFETCH=4 bench chain-pf4-$r $C
    DEEPGEMM_NVRTC_DEFINES=DG_PDL_PREFETCH=1000 bench chain-pf1000-$r $C
done
finish
bench flush-main --check none --shapes $S/prefetch-33.txt
DEEPGEMM_NVRTC_DEFINES=DG_PDL_PREFETCH=1000 bench flush-pf1000 --check none --shapes $S/prefetch-33.txt
finish
P=scripts/preload/pdl_chain.py
for r in 1 2; do
    LD_PRELOAD=$PWD/.gpu/libdeepgemm_preload.so timeout 90 python3 $P main-$r >>"$OUT/torch.txt" 2>&1
    DEEPGEMM_NVRTC_DEFINES=DG_PDL_PREFETCH=4 LD_PRELOAD=$PWD/.gpu/libdeepgemm_preload.so timeout 90 python3 $P pf4-$r >>"$OUT/torch.txt" 2>&1
    DEEPGEMM_NVRTC_DEFINES=DG_PDL_PREFETCH=1000 LD_PRELOAD=$PWD/.gpu/libdeepgemm_preload.so timeout 90 python3 $P pf1000-$r >>"$OUT/torch.txt" 2>&1
    echo "torch round $r ${SECONDS}s"
done
grep -v "^\s*$" "$OUT/torch.txt" | tr '\n' ';' | cut -c1-3000; echo
finish
