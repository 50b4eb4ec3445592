#!/usr/bin/env bash
# Fourth GPU call of session 7: traces of Stream-K/split-K launches with the fixup's phases
# (contributor: partial stored, flag raised; owner: flags seen, epilogue done) and of the
# producer's prologue (barriers initialised, schedule made), then the small-N, wave, random and
# cliff sets against cuBLASLt at this commit.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session7d.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
K=bf16_bf16_tn_m128n128k64_s6_c1x1,bf16_bf16_tn_m128n16k64,bf16_bf16_tn_m128n32k64,bf16_bf16_tn_m128n64k64,bf16_bf16_tn_m128n256k64_s4_c1x1
DEEPGEMM_NVRTC_DEFINES=DG_TRACE $B --precompile $K >/dev/null
$B --precompile all >/dev/null
echo "precompile ${SECONDS}s"
trace "1x64x64" --shape 1x64x64
trace "16x4096x4096" --shape 16x4096x4096
trace "64x2112x7168 #0" --shape 64x2112x7168
trace "64x2112x7168 #7" --shape 64x2112x7168 --algo-index 7
trace "64x4096x4096 #6" --shape 64x4096x4096 --algo-index 6
trace "128x4096x4096 #0" --shape 128x4096x4096
trace "128x4096x4096 #2" --shape 128x4096x4096 --algo-index 2
trace "1664x1664x8192" --shape 1664x1664x8192
echo "traces ${SECONDS}s"
[ -n "${ONLY_TRACES:-}" ] && exit 0
for set in small-n waves random cliffs; do
    bench $set --shapes .gpu/shapes/$set.txt
done
