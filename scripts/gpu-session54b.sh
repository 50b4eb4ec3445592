#!/usr/bin/env bash
# Session 54, second call (~9.5 min; 53a's devcache carried as .gpu/cubins.txz): session 51's
# `big` cases (scripts/gpu-session51b.sh) still owed, with session 53's parallel host side (fills,
# the NaN scan and the comparison on every core, no float64 copy of C at beta = 0), in priority
# order, each within what is left of the call. 60000x512x40000 TN passed in session 53.
# Predicted: every case PASS, deepgemm 0.9-1.1x cuBLASLt where aligned.
#     here:  bash scripts/gpu-pack.sh; cp <53a's devcache.txz> .gpu/cubins.txz
#     there: timeout 590 bash scripts/gpu-session54b.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
big() {
    local name=$1; shift
    local left=$((580 - SECONDS))
    if [ "$left" -lt 40 ]; then echo "big $name skipped (time)"; return; fi
    [ "$left" -gt 150 ] && left=150
    timeout "$left" "$B" --iters 2 --warmup 1 --check sample "$@" >"$OUT/big-$name.txt" 2>&1
    echo "big $name rc=$? ${SECONDS}s: $(grep -c ' PASS$' "$OUT/big-$name.txt") PASS, $(grep -c 'FAIL' "$OUT/big-$name.txt") FAIL;" \
        "$(grep -m1 -oE 'dg_(sm90|portable|pack|skinny)[^ ,)]*' "$OUT/big-$name.txt")"
    grep -E "^[0-9]+x[0-9]+x[0-9]+ " "$OUT/big-$name.txt" | head -2
}
big tn-d --layout TN --shape 128256x17000x512
big batch --layout TN --batch 33 --shape 8192x8192x128
big nt-d --layout NT --shape 128256x17000x256
big odd-160 --layout TN --workspace-mib 160 --shape 128257x16999x511
big tn-d32 --layout TN --out fp32 --shape 65536x33000x256
big nn-b --layout NN --shape 512x60000x40000
big tt-d --layout TT --shape 17000x128256x256
big odd-32 --layout TN --shape 128257x16999x511
big tf32 --layout TN --dtype tf32 --shape 65536x33000x128
big nn-d --layout NN --shape 17000x128256x256
finish
