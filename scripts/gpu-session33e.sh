#!/usr/bin/env bash
# Session 33, call e (~6 min, every kernel carried): the pack kernels launched programmatically
# too (they wait for their predecessor on sm_90+), so a packed call's boundaries (pack A -> pack B
# -> GEMM -> D's copy back) pass their launch gaps under the kernel before.
#   1. `back_to_back_dependent_calls` (now with two odd-leading-dimension chains: packs and D's
#      copy in every call) with PDL and with DEEPGEMM_PDL=0; gpu_pack. Predicted: all pass.
#   2. With the L2 flushed (the bench's default), PDL on / off in turn, twice: the cliffs at 160
#      MiB and 512-2048 cubes with A and B at odd leading dimensions (--pad 1,1,0,0). Predicted:
#      1-2 us less a packed call with PDL (0.5-1% at 4095³ / 4097³ / 4100³, 5-15% on the small
#      cubes), the aligned shapes unchanged.
#   3. PyTorch's MLP prefill GEMMs with a bias (14336x1024x4096, 4096x1024x14336), every candidate
#      (--sweep) against cuBLASLt: where `pdl_chain.py`'s MLP at M = 1024 lost 3% to cuBLAS.
#     here:  CUBINS=all bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session33e.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
b2b() {
    timeout 120 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture back_to_back >"$OUT/$1.txt" 2>&1
    echo "== $1 rc=$? ${SECONDS}s: $(groups "$OUT/$1.txt")"
}
precompile_all
b2b b2b-pdl
DEEPGEMM_PDL=0 b2b b2b-pdl0
timeout 150 .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture >"$OUT/pack.txt" 2>&1
echo "== gpu_pack rc=$? ${SECONDS}s: $(groups "$OUT/pack.txt")"
finish
for r in 1 2; do
    bench cliffs-on-$r --workspace-mib 160 --check sample --shapes $S/cliffs.txt
    DEEPGEMM_PDL=0 bench cliffs-off-$r --workspace-mib 160 --check sample --shapes $S/cliffs.txt
    bench odd-on-$r --check none --pad 1,1,0,0 --shape 512x512x512 --shape 1024x1024x1024 --shape 2048x2048x2048
    DEEPGEMM_PDL=0 bench odd-off-$r --check none --pad 1,1,0,0 --shape 512x512x512 --shape 1024x1024x1024 --shape 2048x2048x2048
done
finish
bench mlp-sweep --epilogue bias --check sample --sweep --shape 14336x1024x4096 --shape 4096x1024x14336
grep -E "^  (rank|#)|sweep|us" "$OUT/mlp-sweep.txt" | head -40
finish
