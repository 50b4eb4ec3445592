#!/usr/bin/env bash
# Second GPU call of session 7: the ring's first loads issued before the CTA barrier and
# setmaxnreg, 32-bit tile arithmetic, Stream-K owners polling their contributors' flags in
# parallel and reading 4 partials per batch on tiles up to 64 wide. Traces first (the same
# launches as 7a), then the bench sets against cuBLASLt, then every direct kernel case and the
# gpu_matmul grid.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session7b.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
ONLY_TRACES=1 bash "$(dirname "$0")/gpu-session7a.sh"
echo "traces ${SECONDS}s"
bench tiny --shape 1x64x64 --shape 64x64x64 --shape 128x128x128 --shape 256x256x256 --shape 1x4096x4096 --shape 16x4096x4096
bench small-m --shapes .gpu/shapes/small-m.txt
bench waves --shapes .gpu/shapes/waves.txt
bench set-a3 --shape 2048x2048x2048 --shape 4096x4096x4096 --shape 8192x8192x1024
[ -n "${SKIP_TESTS:-}" ] && exit 0
precompile_all
timeout 200 .gpu/tests/nvrtc_sm90 --ignored --nocapture --test-threads=1 sm90_kernel_matches_reference_on_gpu >"$OUT/sm90.txt" 2>&1
echo "nvrtc_sm90 rc=$? ${SECONDS}s: $(grep -E 'test result' "$OUT/sm90.txt")"
grep -E "FAIL|panicked|max scaled err [1-9]" "$OUT/sm90.txt" | head -5 | cut -c1-250
timeout 260 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
(cd "$OUT" && tar czf tests.tgz sm90.txt matmul.txt && rm -f sm90.txt matmul.txt)
