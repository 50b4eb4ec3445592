#!/usr/bin/env bash
# Session 48, call b (~9 min): hybrids over clusters of 2 x 1 / 2 x 2 among the candidates
# (`streamk::cluster_hybrids`). (1) Correct: gpu_matmul's multi-wave groups with every
# cluster-of-2 (then 2 x 2) plan forced onto a hybrid (DEEPGEMM_DECOMPOSITION=hybrid; the
# shapes with no hybrid fall back to the portable kernel), and the bench's check on the moved
# TN/TT shapes. (2) Timed: the shape-layouts it moves over the kept sets (moved-48-*, 52, most
# in TT / NT; 4888x832x4528 TT added: 19e's loser) against DEEPGEMM_CLUSTER_SK=0, alternating,
# two rounds. Predicted from 48a's sweep: TN/NN moves 0.85-0.95 of the time (2904x1496x13976
# ~0.8), TT/NT ~0.95, set A's 8192^3 TT/NT 0.98-1.0.
#     there: timeout 580 bash scripts/gpu-session48b.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile "c2x1,c2x2,$(paste -sd, .gpu/shapes/kernels-48b.txt)" >/dev/null
echo "precompile ${SECONDS}s"
T=.gpu/tests/gpu_matmul
for c in 2 4; do
    DEEPGEMM_CLUSTER=$c DEEPGEMM_DECOMPOSITION=hybrid timeout 150 $T --ignored --test-threads=1 --nocapture \
        tiles_past_the_edges large_shapes repeated_runs >"$OUT/grid-hybrid-c$c.txt" 2>&1
    echo "== grid hybrid c$c rc=$? ${SECONDS}s: $(groups "$OUT/grid-hybrid-c$c.txt")"
done
for l in TN NN TT NT; do
    ll=$(echo "$l" | tr A-Z a-z)
    for r in 1 2; do
        if [ "$r" = 1 ] && [ "$l" = TN -o "$l" = TT ]; then chk=(); else chk=(--check none); fi
        bench "${l}_new-$r" --layout "$l" --shapes .gpu/shapes/moved-48-$ll.txt "${chk[@]}" >/dev/null
        DEEPGEMM_CLUSTER_SK=0 bench "${l}_old-$r" --layout "$l" --shapes .gpu/shapes/moved-48-$ll.txt --check none >/dev/null
        echo "$l round $r ${SECONDS}s: new $(grep -m1 '^ratio' "$OUT/${l}_new-$r.txt") old $(grep -m1 '^ratio' "$OUT/${l}_old-$r.txt")"
    done
done
grep -h -E "FAIL|MISMATCH" "$OUT"/*_new-1.txt | head -5; grep -hc PASS "$OUT"/TN_new-1.txt "$OUT"/TT_new-1.txt
