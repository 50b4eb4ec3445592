#!/usr/bin/env bash
# Run in session 20 (BENCHMARKS.md; the patch it applied is merged at b7f9a82, planned by default
# there, so DEEPGEMM_CLUSTER=4 below now only forces it): clusters of 2 x 2 CTAs (A
# multicast along each tile row as well as B along each tile column; 128x128 and 128x256, every
# layout, 16-bit and tf32 in; Stream-K over them as over clusters of 2; planned only under
# DEEPGEMM_CLUSTER=4). All 34 variants compile for sm_90a with 168 registers and no spills.
#   1. The direct cases of the 2x2 variants (correctness first: the script stops there).
#   2. The gpu_matmul grid on them (DEEPGEMM_VARIANT=c2x2), forced onto Stream-K and split-K.
#   3. Every candidate with them forced (--sweep, DEEPGEMM_CLUSTER=4) on the k-alignment pairs
#      and under-wave shapes, next to main's plans and cuBLASLt; then 2048x2048x8200 and
#      4096x4096x4104 (lines off the sectors, where clusters of 2 took 1.4x to 1.04x).
#   4. The clusters of 2 against main (their SASS moved slightly in 3 of 7 variants compared):
#      TT random-k8, alternating twice.
#   Predicted: where L2 requests bind (rows off the lines: 496x1000x11400, 1048x1328x7336,
#   2048x2048x8200) 2x2 10-25% faster than 2x1 (A's requests halved too); aligned shapes
#   within +-3%; clusters of 2 unchanged (+-1%).
#     here (as run, before b7f9a82):  git apply wip/cluster-2x2.patch && bash scripts/gpu-pack.sh &&
#            git checkout kernels src tests && bash scripts/gpu-pack-old.sh HEAD
#     there: bash scripts/gpu-session20b.sh (.gpu carried, ~450 s: split it if needed)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_SM90_VARIANTS=c2x2 direct || { finish; exit 1; }
precompile_all
for dec in streamk splitk; do
    DEEPGEMM_VARIANT=c2x2 DEEPGEMM_DECOMPOSITION=$dec timeout 200 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/grid-c2x2-$dec.txt" 2>&1
    echo "grid c2x2 $dec: $(groups "$OUT/grid-c2x2-$dec.txt") ${SECONDS}s"
done
grep -q "^test result: ok" "$OUT/grid-c2x2-streamk.txt" || { finish; exit 1; }
bench main-vs-cublas --check sample --shapes .gpu/shapes/kalign-19d.txt --shape 2048x2048x8200 --shape 4096x4096x4104 --shape 1000x3000x4000
for s in kalign-19d under-wave; do
    DEEPGEMM_CLUSTER=4 timeout 200 "$B" --sweep --no-cublas --check sample --iters 20 --warmup 3 --shapes .gpu/shapes/$s.txt >"$OUT/sweep-c2x2-$s.txt" 2>&1
    echo "== sweep c2x2 $s rc=$? ${SECONDS}s"
done
DEEPGEMM_CLUSTER=4 bench c2x2-lines --no-cublas --check sample --shape 2048x2048x8200 --shape 4096x4096x4104 --shape 1000x3000x4000 --shape 4096x4096x4096
alternate 2 --no-cublas --check none --layout TT --shapes .gpu/shapes/random-k8.txt
finish
