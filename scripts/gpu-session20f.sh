#!/usr/bin/env bash
# Session 20, part 1 (correctness): clusters of 2 x 2 planned by the model. `20b`'s grid ran with
# DEEPGEMM_VARIANT=c2x2 but without DEEPGEMM_CLUSTER=4, which then left no Hopper variant: it
# tested the portable kernel. Here the gpu_matmul grid runs on c2x2 variants only, forced onto
# each schedule (data-parallel, Stream-K, split-K), counting the c2x2 launches logged.
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session20f.sh (~200 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_CACHE_DIR=$DEEPGEMM_CACHE_DIR "$B" --precompile c2x2 >/dev/null; echo "precompile c2x2 ${SECONDS}s"
for dec in dp streamk splitk; do
    DEEPGEMM_LOG_LEVEL=3 DEEPGEMM_LOG_FILE=/tmp/plans-$dec.log DEEPGEMM_VARIANT=c2x2 DEEPGEMM_DECOMPOSITION=$dec \
        timeout 170 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/grid-c2x2-$dec.txt" 2>&1
    echo "grid c2x2 $dec: $(groups "$OUT/grid-c2x2-$dec.txt") ${SECONDS}s; c2x2 launches logged: $(grep -c 'clusters of 4' /tmp/plans-$dec.log), other sm90: $(grep 'dg_sm90' /tmp/plans-$dec.log | grep -vc 'c2x2')"
    grep -oE "dg_sm90_[a-z0-9]+_[a-z0-9]+_[a-z]+_m[0-9]+n[0-9]+k[0-9]+_s[0-9]+_c2x2[^ ,;)]*" /tmp/plans-$dec.log | sed -E 's/sk[0-9]+x[0-9]+/sk/' | sort | uniq -c | sort -rn | head -6
done
finish
