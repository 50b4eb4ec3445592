#!/usr/bin/env bash
# Sixth GPU call of session 9, at main after merging next/down-lanes: 9e ran set A with
# cuBLASLt interleaved for the new bench and without it for main's (.gpu/old), and main's came
# out up to 11% faster on some shapes, which that difference in conditions may explain. Here
# both without cuBLASLt, alternating new / main twice, on the shapes that differed most.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh b18aae8
#     there: bash scripts/gpu-session9f.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S="--shape 4096x7168x16384 --shape 4096x8192x8192 --shape 4096x4096x14336 --shape 4096x24576x1536 --shape 4096x4096x4096"
"$B" --precompile m128n256k64_s4_c1x1,m128n240k64_s4_c1x1 >/dev/null
precompile_old m128n256k64_s4_c1x1,m128n240k64_s4_c1x1
for i in 1 2; do
    bench new-$i $S --no-cublas
    bench_old main-$i $S --no-cublas
done
