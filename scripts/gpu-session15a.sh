#!/usr/bin/env bash
# For the next session (written in session 14, not run; branch next/down-lanes-ilp): the
# staged epilogue's stores down the columns of an unaligned column-major D read the round's
# values from the staging buffer before the first store (all 304 variants compile without
# spills). 14h: 4095^3's GEMM on its packed copies ran 197 us against 4096^3's 179, the same
# tiles and k-loop: the difference is D's staged epilogue, which reads each column after the
# previous column's stores (the compiler cannot tell the buffer from D).
# Predicted: every direct case and the grid pass; the first tile's epilogue (DG_TRACE marks
# 4 -> 5) ~8k -> ~4k cycles; 4095x4096x4096 (D alone unaligned) and 4095^3 5-8% faster;
# 4096^3 (TMA stores) unchanged.
#     here:  git checkout next/down-lanes-ilp && bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session15a.sh  (.gpu carried, ~380 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
precompile_old m128n256k64_s4_c1x1,m128n208k64_s4_c1x1,m128n192k64_s4_c1x1
direct || { finish; exit 1; }
timeout 200 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
S="--shape 4095x4096x4096 --shape 4095x4095x4095 --shape 4096x4096x4096 --shape 50257x8192x768 --workspace-mib 160 --no-cublas --check none"
alternate 2 $S
trace "4095x4096x4096 (unaligned D)" --shape 4095x4096x4096
trace "4096^3" --shape 4096x4096x4096
finish
