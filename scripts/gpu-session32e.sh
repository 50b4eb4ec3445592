#!/usr/bin/env bash
# Session 32, call e (~250 s, every kernel carried): main's final commit on the GPU. Its
# production kernels' SASS is session 31's (`1bdf4f6`); its plans differ only for 16-bit D at
# leading dimensions TMA cannot store (`d_pays`, verified in 32c and 32d).
#   1. Against cuBLASLt at 160 MiB: the cliffs and the odd-D shapes of 32d. Predicted: 32d's
#      figures within 2%, every sampled check passing.
#   2. Correct: the gpu_matmul grid and gpu_pack (packed and copied operands, D's copy among
#      them). Predicted: all pass. (The direct cases and the grid forced onto Stream-K: 31c,
#      on the same SASS.)
#     here:  CUBINS=all bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session32e.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
precompile_all
bench cliffs-160 --workspace-mib 160 --check sample --shapes $S/cliffs.txt
bench odd-d --workspace-mib 160 --check sample --pad 0,0,0,1 --shape 4096x4096x4096 --shape 1264x1032x8416
timeout 150 .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture >"$OUT/pack.txt" 2>&1
echo "== gpu_pack rc=$? ${SECONDS}s: $(groups "$OUT/pack.txt")"
finish
grid grid 120
finish
