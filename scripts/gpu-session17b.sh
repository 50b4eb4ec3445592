#!/usr/bin/env bash
# Prepared in session 16 (no device time left), for branch next/ring-epilogue: variants whose
# epilogue stages in the ring's A tiles (`_re`, kernels/sm90/gemm.cuh kRingEpilogue) keep a
# stage more (128x192: 5 against 4, as cuBLASLt's nvjet_sm90_tst_128x192_64x5) and run one
# tile a CTA (data-parallel, tiles <= SMs). The model gives them no value yet (equal
# estimates, so the plain variant stays first): this run decides whether to.
# Correctness first (the direct ring cases; the gpu_matmul grid narrowed to `_re`, whose
# problems with more tiles than SMs fall back to other kernels), then each one-wave shape's
# plain and ring variants timed against each other in one process, three times.
# Predicted: everything passes; the ring variants 0-3% faster on one-wave shapes with k >= 4096
# (1000x3000x4000 TN: ~38.8 -> ~37.8 us), equal on short k.
#     here:  git checkout next/ring-epilogue && bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session17b.sh  (.gpu carried, ~300 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile _re,m128n192k64_s4_c1x1,m128n168k64_s5_c1x1,m128n136k64_s5_c1x1,m128n128k64_s6_c1x1 >/dev/null; echo "precompile ${SECONDS}s"
DEEPGEMM_SM90_VARIANTS=_re direct || { finish; exit 1; }
DEEPGEMM_VARIANT=_re timeout 170 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul-re.txt" 2>&1
echo "gpu_matmul ring rc=$? ${SECONDS}s: $(groups "$OUT/matmul-re.txt")"
for r in 1 2 3; do
    for c in "1000x3000x4000 TN m128n192k64_s4_c1x1,m128n192k64_s5_c1x1_re" \
             "1000x3000x4000 NN m128n192k64_s4_c1x1,m128n192k64_s5_c1x1_re" \
             "1664x1664x8192 TN m128n168k64_s5_c1x1,m128n168k64_s6_c1x1_re" \
             "448x4480x4608 TN m128n136k64_s5_c1x1,m128n136k64_s6_c1x1_re" \
             "1024x1024x8192 TN m128n128k64_s6_c1x1,m128n128k64_s7_c1x1_re"; do
        set -- $c
        DEEPGEMM_VARIANT=$3 timeout 60 "$B" --sweep --no-cublas --check none --iters 30 --warmup 5 --layout $2 --shape $1 >"$OUT/ring-$1-$2-$r.txt" 2>&1
        echo "== $1 $2 run $r rc=$? ${SECONDS}s"
        grep -E "sweep #" "$OUT/ring-$1-$2-$r.txt" | sed -e 's/(vs the timed.*//' -e 's/dg_sm90_bf16_bf16_[a-z][a-z]_//' | grep -v portable | head -3 | cut -c1-110
    done
done
finish
