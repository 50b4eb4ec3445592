#!/usr/bin/env bash
# First GPU call of session 7: where a small launch's time goes, from inside the kernel
# (DG_TRACE builds: the first and last CTA's phase clocks, kernels/sm90/trace.cuh), then the
# small-M set and a few tiny shapes with the default plans against cuBLASLt.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session7a.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
K=bf16_bf16_tn_m128n128k64_s6_c1x1,bf16_bf16_tn_m128n16k64,bf16_bf16_tn_m128n32k64,bf16_bf16_tn_m128n64k64,bf16_bf16_tn_m128n256k64_s4_c1x1
DEEPGEMM_NVRTC_DEFINES=DG_TRACE $B --precompile $K >/dev/null
$B --precompile bf16_bf16_tn >/dev/null
echo "precompile ${SECONDS}s"
trace "1x64x64" --shape 1x64x64
trace "1x64x64 no-flush" --shape 1x64x64 --no-flush
trace "128x128x128" --shape 128x128x128
trace "16x4096x4096 default" --shape 16x4096x4096
trace "16x4096x4096 no-flush" --shape 16x4096x4096 --no-flush
trace "16x4096x4096 rank 4" --shape 16x4096x4096 --algo-index 4
trace "128x4096x4096" --shape 128x4096x4096
trace "4096x4096x4096" --shape 4096x4096x4096
echo "traces ${SECONDS}s"
[ -n "${ONLY_TRACES:-}" ] && exit 0
timeout 60 $B --shape 1x64x64 --shape 64x64x64 --shape 128x128x128 --shape 256x256x256 --shape 1x4096x4096 --shape 16x4096x4096 >"$OUT/tiny.txt" 2>&1
echo "tiny rc=$? ${SECONDS}s"
timeout 120 $B --shapes .gpu/shapes/small-m.txt >"$OUT/small-m.txt" 2>&1
echo "small-m rc=$? ${SECONDS}s"
for f in tiny small-m; do
    echo "== $f"; grep -E "^[0-9]+x[0-9]+x[0-9]+ |^ratio" "$OUT/$f.txt" | awk '{print $1, $5, $7, $9}' | tr '\n' ';'; echo
done
# Correctness of the whole grid with the default plans (one-row and one-column operands now
# take their contiguous layout, `problem::unit_extent_strides`).
timeout 300 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
(cd "$OUT" && tar czf matmul.tgz matmul.txt && rm -f matmul.txt tr.txt)
