#!/usr/bin/env bash
# Session 15, branch next/down-lanes-lean: the staged epilogue's stores down an unaligned D's
# columns with one pointer walked along the columns, predicates fixed per round and the
# stores predicated instead of branched around (15a's SASS: ~23 instructions a column-half,
# each column's buffer loads after the previous column's stores; now ~10, the next column's
# loads issued before the current column's stores).
# Predicted: direct cases and the grid pass; first tile's epilogue (consumer marks 4 -> 5)
# 10.9k (15a) -> 7-8k cycles; 4095x4096x4096 3-4% faster than main, 50257x8192x768 ~8%,
# 4096^3 unchanged. DG_FORCE_DOWN_LANES on 4096^3 (the same stores, aligned columns): if its
# epilogue takes what 4095x4096x4096's does, the loop's instructions pace it, not the
# misaligned sectors.
#     here:  git checkout next/down-lanes-lean && bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session15b.sh  (.gpu carried, ~300 s)
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
TRACE_DEFINES=DG_FORCE_DOWN_LANES trace "4096^3 forced down the columns" --shape 4096x4096x4096
# The forced build's results checked (a diagnostic build, but it should still be right).
DEEPGEMM_NVRTC_DEFINES=DG_FORCE_DOWN_LANES bench forced-check --shape 4096x4096x4096 --shape 1000x3000x4000 --shape 129x4097x256 --no-cublas
finish
