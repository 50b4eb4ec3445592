#!/usr/bin/env bash
# Session 47, call c (~8 min): `plan::solo_split_for_few_tiles` (the full-ring solo 64x64,
# split, first where a problem has at most 36 such tiles and k >= 24 iterations of 128) against
# the same build with it off (`DEEPGEMM_SOLO_SPLIT=0`), alternating, two rounds, every layout,
# on the kept-set shape-layouts it moves (scripts/shapes/moved-47-*: in sample, mostly the
# shapes of 47b's sweeps) and 60 fresh shapes (fresh-47c, seed 4747: out of sample, every one
# moved in every layout); the bench's check on the first TN round; then the gpu_matmul grid
# at the new defaults. Built from the worktree branch `solo-sk`, carried as .gpu-b.
# Predicted from 47b (TN sweeps): TN 0.92-0.96 of the time; the other layouts unmeasured
# (0.93-1.0).
#     there: rm -rf .gpu && mv .gpu-b .gpu && timeout 560 bash scripts/gpu-session47c.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile "k128_s6_c1x1_w1,$(cat scripts/shapes/kernels-47c.txt)" >/dev/null
echo "precompile ${SECONDS}s"
for l in TN NN TT NT; do
    ll=$(echo "$l" | tr A-Z a-z)
    grep -hvE '^\s*#|^\s*$' .gpu/shapes/moved-47-$ll.txt .gpu/shapes/fresh-47c.txt >/tmp/s-$ll.txt
    for r in 1 2; do
        if [ "$l$r" = TN1 ]; then chk=(); else chk=(--check none); fi
        bench "${l}_new-$r" --layout "$l" --shapes /tmp/s-$ll.txt "${chk[@]}" >/dev/null
        DEEPGEMM_SOLO_SPLIT=0 bench "${l}_old-$r" --layout "$l" --shapes /tmp/s-$ll.txt --check none >/dev/null
        echo "$l round $r ${SECONDS}s: new $(grep -m1 '^ratio' "$OUT/${l}_new-$r.txt") old $(grep -m1 '^ratio' "$OUT/${l}_old-$r.txt")"
    done
done
grep -c PASS "$OUT/TN_new-1.txt"; grep -E "FAIL|MISMATCH" "$OUT/TN_new-1.txt" | head -3
grid grid-47c 150
