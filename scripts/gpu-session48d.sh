#!/usr/bin/env bash
# Session 48, call d (~5 min): the final rule out of sample (`streamk::cluster_hybrids`, and
# transposed plans held against the plain direct plans, `plan::DirectBest`): the shape-layouts
# it moves among 60 fresh large shapes (scripts/shapes/fresh-48d.txt, seed 4850: 59 of 240,
# moved-48d-*) against DEEPGEMM_CLUSTER_SK=0, alternating, one round, deepgemm alone; the
# bench's check on the TN round. Predicted from 48b / 48c under the final rule: every layout
# 0.94-0.97 of the time.
#     there: timeout 580 bash scripts/gpu-session48d.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile "$(paste -sd, .gpu/shapes/kernels-48d.txt)" >/dev/null
echo "precompile ${SECONDS}s"
for l in TN NN TT NT; do
    ll=$(echo "$l" | tr A-Z a-z)
    for r in 1; do
        if [ "$l$r" = TN1 ]; then chk=(); else chk=(--check none --no-cublas); fi
        bench "${l}_new-$r" --layout "$l" --shapes .gpu/shapes/moved-48d-$ll.txt "${chk[@]}" >/dev/null
        DEEPGEMM_CLUSTER_SK=0 bench "${l}_old-$r" --layout "$l" --shapes .gpu/shapes/moved-48d-$ll.txt --check none --no-cublas >/dev/null
        echo "$l round $r ${SECONDS}s"
    done
done
grep -h -E "FAIL|MISMATCH" "$OUT"/*_new-1.txt | head -5; grep -hc PASS "$OUT"/TN_new-1.txt
