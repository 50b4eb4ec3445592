#!/usr/bin/env bash
# Prepared in session 48 for the next GPU session (~7 min): the refit of MN_B_UNCLUSTERED_FACTOR
# (src/plan/streamk.rs: an unclustered N-major B charged 1.15x) on large TT shapes. Session 48's
# 48b measured the unclustered TT plans at 0.82-0.90 of their estimates on 2176² x 8192,
# 2432x1792x8192 and 3896x4288x5184, and they were most of the cluster hybrids' TT losers.
# Times every candidate of 70 large TT shapes (big-48a and 23 of fresh-48c, scripts/shapes/
# large-tt-49.txt) twice: the model's list (mostly clusters and cluster hybrids) with
# cuBLASLt, then the unclustered ones only (DEEPGEMM_CLUSTER=1), so sweep-regret.py can score a
# refitted factor against both kinds. Predicted: the unclustered plans 0.85-0.95 of their
# estimates, the clustered ones 0.95-1.05.
#     there: timeout 580 bash scripts/gpu-session49a.sh; . scripts/gpu-env.sh; finish
# Here, after: ./target/release/deepgemm-bench --plans-all --layout TT --shapes
# scripts/shapes/large-tt-49.txt > /tmp/pa.txt; python3 scripts/sweep-regret.py /tmp/pa.txt
# scripts/sweeps/49a/sweep-tt-*.txt (then again with the factor changed).
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile "$(paste -sd, .gpu/shapes/kernels-49a.txt)" >/dev/null
echo "precompile ${SECONDS}s"
sweep tt-default 260 --layout TT --shapes .gpu/shapes/large-tt-49.txt
DEEPGEMM_CLUSTER=1 sweep tt-unclustered 240 --layout TT --shapes .gpu/shapes/large-tt-49.txt --no-cublas
grep -E "^ratio" "$OUT"/sweep-*.txt
