#!/usr/bin/env bash
# Prepared in session 20, not yet run: wip/cluster-n.patch, clusters along n alone (1 x 2, 1 x 4:
# the CTAs of a tile row share A through multicast, B unclustered) for the tiles under 128 wide
# (16, 32, 64, 96; 16-bit in; 1 x 4 for a K-major A). Why: `20i` found 496x376x1360 on 96 CTAs of
# 128x16 busy 1.8x as long as cuBLASLt's 64x32 tiles in clusters of 2 x 4, its A re-read by all
# 24 tile columns (~38 MB from L2 for 2.4 MB of operands); 1 x 4 asks the L2 for a quarter of A.
# All 60 variants compile for sm_90a with 168 registers and no spills; existing variants' SASS
# unchanged (9 compared: c1x1, c2x1, c2x2, split-K pairs, tf32). Planned only under
# DEEPGEMM_CLUSTER=1x2 / 1x4 (the twin replaces its base wherever it is built).
#   1. The direct cases of the c1x2/c1x4 variants (correctness first: the script stops there).
#   2. The gpu_matmul grid on them (DEEPGEMM_VARIANT=c1x4 / c1x2 with DEEPGEMM_CLUSTER set),
#      forced onto data-parallel, Stream-K and split-K, counting their launches.
#   3. Every candidate of them (--sweep, only them) on under-wave and k-alignment TN, next to
#      main's candidates and main's plans against cuBLASLt in the same run.
#   Predicted: where narrow tiles are planned on small shapes (496x376x1360 128x16: 11.2 us,
#   336x1912x1544, 264x1168x2424, 432x840x1832) 1 x 4 15-35% faster than unclustered, 1 x 2
#   about half that; wide-tile plans unchanged.
#     here:  git apply wip/cluster-n.patch && bash scripts/gpu-pack.sh && git checkout kernels src tests
#     there: bash scripts/gpu-session21a.sh 1 (steps 1-2, ~400 s), then ... 2 (step 3, ~300 s):
#     two calls, so that neither runs into the 600 s limit of one.
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
PART=${1:-1}
if [ "$PART" = 1 ]; then
DEEPGEMM_SM90_VARIANTS=c1x2,c1x4 direct || { finish; exit 1; }
for c in 1x2 1x4; do
    DEEPGEMM_CACHE_DIR=$DEEPGEMM_CACHE_DIR "$B" --precompile c$c >/dev/null; echo "precompile c$c ${SECONDS}s"
done
for run in 1x4:dp 1x4:streamk 1x4:splitk 1x2:dp 1x2:streamk; do
    c=${run%:*}; dec=${run#*:}
    DEEPGEMM_LOG_LEVEL=3 DEEPGEMM_LOG_FILE=/tmp/plans-$c-$dec.log DEEPGEMM_CLUSTER=$c DEEPGEMM_VARIANT=c$c DEEPGEMM_DECOMPOSITION=$dec \
        timeout 170 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/grid-c$c-$dec.txt" 2>&1
    echo "grid c$c $dec: $(groups "$OUT/grid-c$c-$dec.txt") ${SECONDS}s; c$c launches logged: $(grep -c "_c$c.*clusters of" /tmp/plans-$c-$dec.log)"
    grep -q "^test result: ok" "$OUT/grid-c$c-$dec.txt" || { finish; exit 1; }
done
finish; exit 0
fi
for c in 1x2 1x4; do
    DEEPGEMM_CACHE_DIR=$DEEPGEMM_CACHE_DIR "$B" --precompile c$c >/dev/null; echo "precompile c$c ${SECONDS}s"
done
precompile_all
bench main-vs-cublas --check sample --shapes .gpu/shapes/under-wave.txt
# The model ranks the clusters along n low (each charged CLUSTER_START_S, 4 us, on 10-15 us
# launches), so a forced list would time few of them: each is swept alone (DEEPGEMM_VARIANT),
# next to main's candidates swept in the same run.
for c in none 1x4 1x2; do
    for s in under-wave kalign-19d; do
        if [ $c = none ]; then
            timeout 200 "$B" --sweep --no-cublas --check sample --iters 20 --warmup 3 --shapes .gpu/shapes/$s.txt >"$OUT/sweep-main-$s.txt" 2>&1
        else
            DEEPGEMM_CLUSTER=$c DEEPGEMM_VARIANT=c$c timeout 200 "$B" --sweep --no-cublas --check sample --iters 20 --warmup 3 --shapes .gpu/shapes/$s.txt >"$OUT/sweep-c$c-$s.txt" 2>&1
        fi
        echo "== sweep $c $s rc=$? ${SECONDS}s"
    done
done
finish
