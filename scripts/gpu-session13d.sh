#!/usr/bin/env bash
# Session 13, fourth call (branch next/sk-fixup): a Stream-K owner adds its partials on the
# way into the TMA stores (16 registers a time) instead of through the staged epilogue, and
# asks L2 for them when its unit starts. 13c traced the staged fixup at ~35k cycles for a
# 128 x 240 tile (1664^2 x 8192, the last CTA: mainloop done at 96.7k, epilogue done 132.5k).
# Predicted: every direct case and the grid under forced Stream-K pass (bitwise repeats
# included); the fixup epilogue (marks 10 -> 11) 35k -> 5-8k cycles; 1664^2 on 128x240
# Stream-K 87.3 -> ~72 us alone (data-parallel 80.6: ~1.12x); the wave set's Stream-K plans
# (2432x1792, 6784x1280, 50816x256) 3-8% faster, the squares (data-parallel) unchanged.
#     here:  bash scripts/gpu-pack.sh (on the branch)
#     there: bash scripts/gpu-session13d.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
direct || exit 1
DEEPGEMM_DECOMPOSITION=streamk timeout 200 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul-sk.txt" 2>&1
echo "gpu_matmul[streamk] rc=$? ${SECONDS}s: $(groups "$OUT/matmul-sk.txt")"
DEEPGEMM_DECOMPOSITION=streamk trace "1664^2 streamk n240" --shape 1664x1664x8192 --algo-index 4
DEEPGEMM_DECOMPOSITION=streamk trace "2176^2 streamk n256" --shape 2176x2176x8192 --algo-index 5
for i in 1 2; do
    DEEPGEMM_DECOMPOSITION=streamk bench sk-1664-n240-$i --shape 1664x1664x8192 --algo-index 4 --no-cublas --check none
    DEEPGEMM_DECOMPOSITION=dp bench dp-1664-n240-$i --shape 1664x1664x8192 --algo-index 5 --no-cublas --check none
done
bench waves --shapes .gpu/shapes/waves.txt
(cd "$OUT" && tar czf tests.tgz direct.txt matmul-sk.txt && rm -f direct.txt matmul-sk.txt)
