#!/usr/bin/env bash
# First GPU call of session 8, on branch next/session8 (main + session 7's two unmeasured
# branches: the L2 re-read charge for narrow tile columns, and Stream-K partials stored in
# fragment order). Correctness of the new fixup first (it runs only in Stream-K/split-K
# launches: the forced subsets and the default grid, where the model picks split plans), then
# the shapes whose plans the charge changes and the small-M set against cuBLASLt.
# Predicted: 64x7168x16384 and 7168x64x16384 back to ~0.99 (from 0.80), 8192x128x8192 ~0.88,
# 7168x128x16384 ~0.95; split plans' owner fixup 3.0-5.4 us -> ~2-3.5 us (small-M +1-2%).
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session8a.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
for d in streamk splitk; do
    DEEPGEMM_DECOMPOSITION=$d timeout 80 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture \
        large_shapes repeated narrow alpha_beta strided epilogues >"$OUT/matmul-$d.txt" 2>&1
    echo "gpu_matmul[$d] rc=$? ${SECONDS}s: $(groups "$OUT/matmul-$d.txt")"
done
timeout 120 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
timeout 60 .gpu/tests/gpu_pack --ignored --test-threads=1 >"$OUT/pack.txt" 2>&1
echo "gpu_pack rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/pack.txt")"
S=""
for s in 64x4096x4096 64x7168x16384 64x4096x7168 7168x64x16384 8192x128x8192 7168x128x16384 4096x128x7168; do S="$S --shape $s"; done
bench changed $S
bench small-m --shapes .gpu/shapes/small-m.txt
(cd "$OUT" && tar czf tests.tgz matmul*.txt pack.txt && rm -f matmul*.txt pack.txt)
