#!/usr/bin/env bash
# Session 19, second call: (1) wide tiles on Stream-K under a wave: every Stream-K split of
# 128x256, 128x192 and 128x128 timed on the under-wave shapes (--sweep with DEEPGEMM_VARIANT:
# the heuristic's 8 best of that tile), to test the model's fixup cost where few tiles are
# split many ways over a long k (18b: 128x144 sk28x84 ran 44.9 us at 496x1000x11400 against a
# model of 55.2; cuBLASLt 31.3 there). (2) scripts/gpu-session19a.sh (wip/cluster-start patch).
#   Predicted: the wide Stream-K plans run 10-25% under their model on long k (k >= 5000), and
#   some reach within 15% of cuBLASLt at 496x1000x11400 (~36 us).
#     here:  as gpu-session19a.sh (the new build carries the patch; TN plans are unchanged by it)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
for v in m128n256 m128n192 m128n128k64_s6_c1x1; do
    DEEPGEMM_VARIANT=$v timeout 200 "$B" --sweep --no-cublas --check none --iters 20 --warmup 3 --shapes .gpu/shapes/under-wave.txt >"$OUT/sweep-wide-$v.txt" 2>&1
    echo "== sweep $v rc=$? ${SECONDS}s"
done
export OUT
bash "$(dirname "$0")/gpu-session19a.sh"
