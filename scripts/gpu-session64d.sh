#!/usr/bin/env bash
# Prepared in session 64 (not run: its device time was spent; ~1.5 min): the small odd shapes the model still leaves on the
# portable kernel (`64c`: every portable launch measured 4-5 us over the model's estimate), every
# heuristic candidate timed (--sweep: the portable plan and the packed ones), TN. If the first
# packed plan beats the portable one on most, `PORTABLE_FIXED_S` is too low.
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 100 bash scripts/gpu-session64d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile "bf16_bf16_tn_m128n128k64_s6_c1x1,bf16_bf16_tn_m128n136k64_s5_c1x1,bf16_bf16_tn_m64n64k128_s6_c1x1_w1,bf16_bf16_tn_m64n128k64_s8_c1x1,bf16_bf16_tn_m128n64k64_s8_c1x1" >/dev/null
echo "precompile ${SECONDS}s"
for s in 17x33x65 64x64x63 300x300x51 48x48x47 200x64x45; do
    timeout 30 "$B" --sweep --layout TN --shape $s --iters 20 --warmup 3 >"$OUT/sweep-$s.txt" 2>&1
    echo "== $s ${SECONDS}s"
    grep -E "us|ms" "$OUT/sweep-$s.txt" | head -8
done
