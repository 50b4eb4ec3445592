#!/usr/bin/env bash
# Session 48, call c (~7 min): `streamk::cluster_hybrids` out of sample: the shape-layouts it
# moves among 80 fresh large shapes (scripts/shapes/fresh-48c.txt, seed 4849: 71 of 320
# shape-layouts, moved-48c-*) against DEEPGEMM_CLUSTER_SK=0, alternating, two rounds,
# deepgemm alone; the bench's check on the first TN round. Predicted from 48b: TN / NN
# 0.92-0.95 of the time, TT / NT 0.96-0.99.
#     there: timeout 580 bash scripts/gpu-session48c.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile "$(paste -sd, .gpu/shapes/kernels-48c.txt)" >/dev/null
echo "precompile ${SECONDS}s"
for l in TN NN TT NT; do
    ll=$(echo "$l" | tr A-Z a-z)
    for r in 1 2; do
        if [ "$l$r" = TN1 ]; then chk=(); else chk=(--check none --no-cublas); fi
        bench "${l}_new-$r" --layout "$l" --shapes .gpu/shapes/moved-48c-$ll.txt "${chk[@]}" >/dev/null
        DEEPGEMM_CLUSTER_SK=0 bench "${l}_old-$r" --layout "$l" --shapes .gpu/shapes/moved-48c-$ll.txt --check none --no-cublas >/dev/null
        echo "$l round $r ${SECONDS}s"
    done
done
grep -h -E "FAIL|MISMATCH" "$OUT"/*_new-1.txt | head -5; grep -hc PASS "$OUT"/TN_new-1.txt
