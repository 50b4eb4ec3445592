#!/usr/bin/env bash
# First GPU script of session 12. (1) What session 11 owed on main: the whole gpu_matmul grid
# with the model's plans, and forced onto Stream-K and split-K (moving the epilogue calls into
# a lambda in bed4e5b changed 78 older variants' SASS by register allocation only; the direct
# cases passed there). (2) Branch next/l2-stream's scripts/gpu-session12e.sh (L2 eviction hints
# against the flush's dirty lines at small M; its predictions are in that script).
# Predicted: every grid passes (1,458 cases auto; the forced ones as in session 10).
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-branch.sh next/l2-stream l2-stream
#     there: bash scripts/gpu-session12d.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
(cd .gpu/l2-stream && OUT=$OUT/l2 bash scripts/gpu-session12e.sh)
for d in auto streamk splitk; do
    if [ $d = auto ]; then unset DEEPGEMM_DECOMPOSITION; else export DEEPGEMM_DECOMPOSITION=$d; fi
    timeout 150 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul-$d.txt" 2>&1
    echo "gpu_matmul[$d] rc=$? ${SECONDS}s: $(groups "$OUT/matmul-$d.txt")"
done
unset DEEPGEMM_DECOMPOSITION
(cd "$OUT" && tar czf grids.tgz matmul-*.txt && rm -f matmul-*.txt)
echo "total ${SECONDS}s"
