#!/usr/bin/env bash
# Session 53, second call (~9.5 min), with 53a's kernels carried (.gpu/cubins.txz from its
# devcache.txz: nothing compiles here).
#   1. gpu_pack whole (53a's ran out of its 150 s compiling kernels inside odd_d: 4 groups
#      passed). Predicted: all pass.
#   2. 51b's `big` cases (outputs, operands and batches past 2^31 elements), in priority order,
#      until the time is nearly spent. Predicted: every case PASS.
#     here:  bash scripts/gpu-pack.sh; cp <53a's devcache.txz> .gpu/cubins.txz
#     there: timeout 590 bash scripts/gpu-session53b.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
timeout 170 .gpu/tests/gpu_pack --ignored --test-threads=1 >"$OUT/gpu_pack.txt" 2>&1
echo "== gpu_pack rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/gpu_pack.txt")"
grep -m5 -E "FAIL|panicked" "$OUT/gpu_pack.txt"
big() {
    local name=$1; shift
    if [ "$SECONDS" -gt 470 ]; then echo "big $name skipped (time)"; return; fi
    timeout 100 "$B" --iters 2 --warmup 1 --check sample "$@" >"$OUT/big-$name.txt" 2>&1
    echo "big $name rc=$? ${SECONDS}s: $(grep -c ' PASS$' "$OUT/big-$name.txt") PASS, $(grep -c 'FAIL' "$OUT/big-$name.txt") FAIL;" \
        "$(grep -m1 -oE 'dg_(sm90|portable|pack|skinny)[^ ,)]*' "$OUT/big-$name.txt")"
    grep -E "^[0-9]+x[0-9]+x[0-9]+ " "$OUT/big-$name.txt" | head -2
}
big tn-d --layout TN --shape 128256x17000x512
big nt-d --layout NT --shape 128256x17000x256
big odd-160 --layout TN --workspace-mib 160 --shape 128257x16999x511
big tn-a --layout TN --shape 60000x512x40000
big batch --layout TN --batch 33 --shape 8192x8192x128
big tn-d32 --layout TN --out fp32 --shape 65536x33000x256
big nn-b --layout NN --shape 512x60000x40000
big tt-d --layout TT --shape 17000x128256x256
big odd-32 --layout TN --shape 128257x16999x511
big tf32 --layout TN --dtype tf32 --shape 65536x33000x128
big nn-d --layout NN --shape 17000x128256x256
finish
