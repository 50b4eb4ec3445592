#!/usr/bin/env bash
# Session 68 (~5 min, on an H200): what session 67 left owed there. (1) 67e: the one-wave request
# bound's moves (67c's 118 shape-layouts, scripts/shapes/onewave-67-1.0-*) at the default plans,
# checked (the bench's sample check: reference entries plus a full comparison with cuBLASLt).
# (2) Those moves timed on the H200, the bound on against off in one build
# (`DEEPGEMM_ONEWAVE_REQUESTS=0`), alternating twice, deepgemm alone; on the H100 (`67c`) they
# ran 0.966 of the time (TN 0.966, NN 0.963, TT 0.968, NT 0.983). Predicted on the H200 (its
# rate was fitted there): 0.95-0.99 by layout.
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests      there: timeout 590 bash scripts/gpu-session68a.sh
# (67e's check ran in session 68 as `68e`, H100: all PASS.)
# Score: python3 scripts/compare-runs.py DIR 'TN_on-*' 'TN_off-*' (each layout).
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
# (1): session 67's check script, as it is (its logs into logs.tgz; this script's into logs-2.tgz).
bash "$(dirname "$0")/gpu-session67e.sh"
for r in 1 2; do
    for l in TN NN TT NT; do
        f=.gpu/shapes/onewave-67-1.0-$(echo $l | tr A-Z a-z).txt
        [ $((560 - SECONDS)) -gt 20 ] || break 2
        DEEPGEMM_ONEWAVE_REQUESTS=0 bench ${l}_off-$r --layout $l --shapes $f --check none --no-cublas --iters 30 >/dev/null
        bench ${l}_on-$r --layout $l --shapes $f --check none --no-cublas --iters 30 >/dev/null
    done
    echo "round $r ${SECONDS}s"
done
for l in TN NN TT NT; do
    python3 scripts/compare-runs.py "$OUT" "${l}_on-*" "${l}_off-*" 2>/dev/null | tail -3 | sed "s/^/$l: /"
done
finish
