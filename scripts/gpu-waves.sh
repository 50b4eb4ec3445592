#!/usr/bin/env bash
# Issue 4's wave-quantisation check at main (~3-4 min): on each shape of
# scripts/shapes/waves.txt (M = N in {1664, 2176, 3200}, K = 8192, and 132k+1 tiles of 128x256),
# the same kernel forced data-parallel, all-Stream-K, as the hybrid (data-parallel waves +
# Stream-K) and as the split tail (data-parallel waves, the last partial wave split evenly;
# session 66) (where a shape has no such schedule the forced run falls to the portable kernel:
# its column reads slow there, ignore it), deepgemm alone, two rounds; then
# the model's own plans against cuBLASLt. Target: Stream-K (the better of the two forms) >= 1.1x
# data-parallel on the same kernel. Last measured in session 25 (`25e`/`25h`, H200, older
# kernels: 3200² 1.11, 1664² 1.04 on 128x256 / 1.12 on 128x248, 2176² 1.46-1.48, the 132k+1
# shapes 1.22-1.67 on 128x256). The table at the end: each (shape, kernel), its best time
# per schedule over the rounds (us) and data-parallel over the better Stream-K form, then each
# shape's best kernel by that ratio. 128 x 128 since session 61 (60a, H100: 1664² 1.177 there,
# 91 tiles of 128 x 256 having no partial wave to quantise); not yet run on the H200 (session
# 66's H100 run, `gpu-session66a.sh`, is this loop without the hybrid).
#     here:  bash scripts/gpu-pack.sh;  there: timeout 560 bash scripts/gpu-waves.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes/waves.txt
for r in 1 2; do
    for v in m128n256k64_s4_c1x1 m128n248k64_s4_c1x1 m128n256k64_s4_c2x1 m128n128k64_s6_c1x1; do
        for dec in dp streamk hybrid tailsplit; do
            DEEPGEMM_VARIANT=$v DEEPGEMM_DECOMPOSITION=$dec bench "w-$v-$dec-$r" --no-cublas \
                --check none --iters 20 --shapes $S
        done
    done
done
bench w-main --check sample --shapes $S
python3 "$(dirname "$0")/waves-table.py" "$OUT" | tee "$OUT/waves-table.txt"
finish
