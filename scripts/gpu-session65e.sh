#!/usr/bin/env bash
# Session 65 (~1.5 min): is SHORT_D_S (plan::pack: 2 us more on a D of under 64 rows, fitted on
# the H200 runs 65b / 65c) right on the card this runs on? Every heuristic candidate (--sweep:
# the portable kernel and the 128-row packed plans) of ten small odd shapes with m of 10-64, TN
# and NT. 65a's H100 sweep had 48x48x47 packed 9.0-9.2 us against 10.3 portable; 65c's H200
# runs had m 49-63 packed 0.99-1.22x the portable time.
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 300 bash scripts/gpu-session65e.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
"$B" --precompile "sm90_bf16_bf16_tn_m128n184k64_s4_c1x1,sm90_bf16_bf16_tn_m128n176k64_s5_c1x1,sm90_bf16_bf16_tn_m128n168k64_s5_c1x1,sm90_bf16_bf16_tn_m128n160k64_s5_c1x1,sm90_bf16_bf16_tn_m128n152k64_s5_c1x1,sm90_bf16_bf16_tn_m128n144k64_s5_c1x1,sm90_bf16_bf16_tn_m128n136k64_s5_c1x1,sm90_bf16_bf16_tn_m128n128k64_s6_c1x1,sm90_bf16_bf16_nt_m128n256k64_s4_c2x2,sm90_bf16_bf16_nt_m128n256k64_s4_c2x1,sm90_bf16_bf16_nt_m128n192k64_s4_c2x1,sm90_bf16_bf16_nt_m128n192k64_s4_c1x1,sm90_bf16_bf16_nt_m128n128k64_s6_c2x2,sm90_bf16_bf16_nt_m128n128k64_s6_c2x1,sm90_bf16_bf16_nt_m128n128k64_s6_c1x1,sm90_bf16_bf16_nt_m128n256k64_s4_c1x1,sm90_bf16_bf16_nt_m128n64k64_s8_c1x1" >/dev/null; echo "precompile ${SECONDS}s"
for l in TN NT; do
    for s in 61x310x29 58x102x30 53x88x31 49x345x37 10x358x36 17x33x65 35x124x47 63x65x57 48x48x47 64x64x63; do
        timeout 40 "$B" --sweep --layout $l --shape $s --iters 30 --warmup 5 >"$OUT/sweep-$l-$s.txt" 2>&1
        echo "== $l $s ${SECONDS}s"
    done
done
finish
