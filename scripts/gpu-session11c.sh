#!/usr/bin/env bash
# Third GPU script of session 11, on branch next/split-cluster: split-K clusters (the two CTAs
# of a cluster take the two k-halves of every tile; the partial goes into the peer's shared
# memory, no workspace or flags). Why: a split-K fixup through global memory cost 3-5.4 us per
# launch (session 7, DG_TRACE): the owner waits ~2 us for its contributors' stores and flags,
# then reads their partials through L2. The model now plans the pairs on 22 of the 40 small-M
# shapes and on 127x4095x4096.
# Predicted: correct everywhere (direct cases incl. 14 split-K cluster cases; the gpu_matmul
# grid forced onto them); the split plans 2-3.5 us faster (64x4096x4096 21.7 -> ~18.5 us,
# 128x4096x4096 21.5 -> ~18.5, 16x4096x4096 19.1 -> ~16.5, 127x4095x4096 23.4 -> ~20, i.e.
# 3.0x cuBLASLt); the data-parallel ones that become pairs (1x8192x8192: 64 CTAs -> 128)
# faster where the loads per SM bound them; 1x2112x7168 and 128x2112x7168 (68 and 132 CTAs
# -> 34 and 66) possibly slower. Small-M geomean 0.967 -> ~1.0.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session11c.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
direct || exit 1
DEEPGEMM_DECOMPOSITION=splitk-cluster timeout 120 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul-ks.txt" 2>&1
echo "gpu_matmul[splitk-cluster] rc=$? ${SECONDS}s: $(groups "$OUT/matmul-ks.txt")"; grep -c "_ks2" "$OUT/matmul-ks.txt"
trace "ks2 64x4096x4096" --shape 64x4096x4096
trace "ks2 16x4096x4096" --shape 16x4096x4096
bench new-1 --shapes .gpu/shapes/small-m.txt --shape 127x4095x4096 --no-cublas
bench_old main-1 --shapes .gpu/shapes/small-m.txt --shape 127x4095x4096 --no-cublas
bench small-m --shapes .gpu/shapes/small-m.txt --shape 127x4095x4096
(cd "$OUT" && tar czf tests.tgz direct.txt matmul-ks.txt && rm -f direct.txt matmul-ks.txt)
