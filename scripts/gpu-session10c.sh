#!/usr/bin/env bash
# Third GPU script of session 10, on branch next/epi-wait (10b: the TMA-store epilogue's wait
# for the store two boxes back: correct on the direct cases, the first tile's epilogue 3,031 ->
# 2,156 cycles at 4096^3, set A within 0.5%). Here: the gpu_matmul grid (default plans, and
# Stream-K forced on the groups whose tiles mix both epilogues in one launch) before a merge;
# then clusters of 2 with B multicast against the unclustered plans on the shapes that fill
# about one wave, where the L2 reads bound the mainloop (1000x3000x4000: 128 tiles of 128x192
# each reading its A and B from L2: ~17 TB/s at the tensor rate). Predicted: c2x1 ~36 us at
# 1000x3000x4000 TN against ~38.5 unclustered (cuBLASLt: 128x192 in 2x1, 37.6); the random and
# wave sets a few % faster on shapes of one or two waves, unchanged above.
#     here:  bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session10c.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
timeout 150 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
DEEPGEMM_DECOMPOSITION=streamk timeout 80 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture \
    large_shapes repeated alpha_beta epilogues >"$OUT/matmul-streamk.txt" 2>&1
echo "gpu_matmul[streamk] rc=$? ${SECONDS}s: $(groups "$OUT/matmul-streamk.txt")"
for l in TN NN TT NT; do
    timeout 60 "$B" --shape 1000x3000x4000 --layout $l --sweep >"$OUT/sweep-$l.txt" 2>&1
    echo "== sweep 1000x3000x4000 $l ${SECONDS}s"; grep -iE "sweep|rank|us " "$OUT/sweep-$l.txt" | head -12
done
bench random --shapes .gpu/shapes/random.txt --no-cublas
DEEPGEMM_CLUSTER=2 bench random-c2 --shapes .gpu/shapes/random.txt --no-cublas
bench waves --shapes .gpu/shapes/waves.txt --no-cublas
DEEPGEMM_CLUSTER=2 bench waves-c2 --shapes .gpu/shapes/waves.txt --no-cublas
(cd "$OUT" && tar czf tests.tgz matmul.txt matmul-streamk.txt && rm -f matmul.txt matmul-streamk.txt)
