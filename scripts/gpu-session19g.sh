#!/usr/bin/env bash
# Session 19, last call: the gpu_matmul grid (alpha/beta, C aliasing D, epilogues, output
# types, batches, transposes, padding) on multicast clusters only (DEEPGEMM_VARIANT=c2x1) forced
# onto Stream-K and onto split-K, with the plans logged to count the cluster Stream-K launches
# (19e's grid under DEEPGEMM_CLUSTER=2 mostly planned narrow unclustered tiles).
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_CACHE_DIR=$DEEPGEMM_CACHE_DIR "$B" --precompile c2x1 >/dev/null; echo "precompile c2x1 ${SECONDS}s"
for dec in streamk splitk; do
    DEEPGEMM_LOG_LEVEL=3 DEEPGEMM_LOG_FILE=/tmp/plans-$dec.log DEEPGEMM_VARIANT=c2x1 DEEPGEMM_DECOMPOSITION=$dec \
        timeout 200 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/grid-c2only-$dec.txt" 2>&1
    echo "grid c2x1 $dec: $(groups "$OUT/grid-c2only-$dec.txt") ${SECONDS}s; launches logged with c2x1+sk: $(grep -c 'c2x1+sk' /tmp/plans-$dec.log), other sm90: $(grep 'dg_sm90' /tmp/plans-$dec.log | grep -vc 'c2x1+sk')"
    grep -oE "dg_sm90_[a-z0-9]+_[a-z0-9]+_[a-z]+_m[0-9]+n[0-9]+k[0-9]+_s[0-9]+_c2x1[^ ,;)]*" /tmp/plans-$dec.log | sed -E 's/sk[0-9]+x[0-9]+/sk/' | sort | uniq -c | sort -rn | head -8
done
finish
