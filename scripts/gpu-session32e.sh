#!/usr/bin/env bash
# Session 32, call e (~250 s, every kernel carried): main's final commit on the GPU. Its
# production kernels' SASS is session 31's (`1bdf4f6`); its plans differ only for 16-bit D at
# leading dimensions TMA cannot store (`d_pays`, verified in 32c and 32d).
#   1. Correct: every direct nvrtc_sm90 case, the gpu_matmul grid, forced onto Stream-K, and
#      gpu_pack (the packed and copied operands, D's copy among them). Predicted: all pass.
#   2. Against cuBLASLt at 160 MiB: the cliffs and the odd-D shapes of 32d. Predicted: 32d's
#      figures within 2%.
#     here:  CUBINS=all bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session32e.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
precompile_all
direct || { finish; exit 1; }
grid grid 200 || { finish; exit 1; }
DEEPGEMM_DECOMPOSITION=streamk grid grid-streamk 150
timeout 120 .gpu/tests/gpu_pack --ignored --test-threads=1 >"$OUT/pack.txt" 2>&1
echo "== gpu_pack rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/pack.txt")"
bench cliffs-160 --workspace-mib 160 --check sample --shapes $S/cliffs.txt
bench odd-d --workspace-mib 160 --check sample --pad 0,0,0,1 --shape 4096x4096x4096 --shape 1264x1032x8416
finish
