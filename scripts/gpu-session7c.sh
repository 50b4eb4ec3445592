#!/usr/bin/env bash
# Third GPU call of session 7: the host-computed scheduler (Sm90Params::set_tiles, no division
# before the first load). Traces (as 7a), the tiny shapes, the small-M set and three set-A shapes
# against cuBLASLt, every decomposition of seven decode/cliff shapes swept (the model's list and
# split-K forced, as session 6's 6c), then correctness: every direct kernel case, the gpu_matmul
# grid, and its Stream-K and split-K forced subsets.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session7c.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
ONLY_TRACES=1 bash "$(dirname "$0")/gpu-session7a.sh" | grep -v precompile
bench tiny --shape 1x64x64 --shape 64x64x64 --shape 128x128x128 --shape 256x256x256 --shape 1x4096x4096 --shape 16x4096x4096
bench small-m --shapes .gpu/shapes/small-m.txt
bench set-a3 --shape 2048x2048x2048 --shape 4096x4096x4096 --shape 8192x8192x1024
S="--shape 127x4095x4096 --shape 128x4096x4096 --shape 64x4096x4096 --shape 64x2112x7168 --shape 128x2112x7168 --shape 16x4096x4096 --shape 1x2112x7168"
for d in auto splitk; do
    DEEPGEMM_DECOMPOSITION=$d timeout 70 $B --sweep $S >"$OUT/sweep-$d.txt" 2>&1
    echo "sweep $d rc=$? ${SECONDS}s"
done
timeout 150 .gpu/tests/nvrtc_sm90 --ignored --nocapture --test-threads=1 sm90_kernel_matches_reference_on_gpu >"$OUT/sm90.txt" 2>&1
echo "nvrtc_sm90 rc=$? ${SECONDS}s: $(grep -E 'test result' "$OUT/sm90.txt")"
grep -E "FAIL|panicked|max scaled err [1-9]" "$OUT/sm90.txt" | head -5 | cut -c1-250
timeout 150 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
for d in streamk splitk; do
    DEEPGEMM_DECOMPOSITION=$d timeout 80 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture \
        large_shapes repeated narrow alpha_beta strided >"$OUT/matmul-$d.txt" 2>&1
    echo "gpu_matmul[$d] rc=$? ${SECONDS}s: $(groups "$OUT/matmul-$d.txt")"
done
(cd "$OUT" && tar czf tests.tgz sm90.txt matmul*.txt && rm -f sm90.txt matmul*.txt)
