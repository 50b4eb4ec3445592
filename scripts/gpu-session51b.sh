#!/usr/bin/env bash
# Prepared in session 51 (no GPU lent) for the next GPU session, one call (~6-8 min): large
# extents. No GPU run so far had an output, operand or batch of more than 2^31 elements, while
# real ones do (PyTorch's logits at a 128256-word vocabulary and 17k tokens: D is 2.18e9
# elements). Each case is the bench's check at `--check sample`: the float64 reference at ~400
# entries (the corners of the first and last batch among them), the whole D scanned for the NaN
# poison, and the whole D compared with cuBLASLt's. Host memory: up to ~55 GB a case (C and its
# float64 copy are built at D's size whatever beta).
# Predicted: every case PASS, deepgemm's time 0.9-1.1x cuBLASLt's where the layout is aligned.
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 590 bash scripts/gpu-session51b.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
# `big NAME ARGS...`: one checked launch pair into $OUT/big-NAME.txt; prints PASS / FAIL.
big() {
    local name=$1; shift
    timeout 100 "$B" --iters 2 --warmup 1 --check sample "$@" >"$OUT/big-$name.txt" 2>&1
    echo "big $name rc=$? ${SECONDS}s: $(grep -c ' PASS$' "$OUT/big-$name.txt") PASS, $(grep -c 'FAIL' "$OUT/big-$name.txt") FAIL;" \
        "$(grep -m1 -oE 'dg_(sm90|portable|pack|skinny)[^ ,)]*' "$OUT/big-$name.txt")"
}
# D over 2^31 elements, every layout (bf16), and with an fp32 D.
big tn-d --layout TN --shape 128256x17000x512
big nt-d --layout NT --shape 128256x17000x256
big tt-d --layout TT --shape 17000x128256x256
big nn-d --layout NN --shape 17000x128256x256
big tn-d32 --layout TN --out fp32 --shape 65536x33000x256
# Odd leading dimensions at that size: the packs (160 MiB) and the slab plans (32 MiB), D in place.
big odd-160 --layout TN --workspace-mib 160 --shape 128257x16999x511
big odd-32 --layout TN --shape 128257x16999x511
# A over 2^31 elements (TN: K-major A), B over 2^31 (NN: K-major B); long k: Stream-K plans.
big tn-a --layout TN --shape 60000x512x40000
big nn-b --layout NN --shape 512x60000x40000
# A strided batch whose batches together pass 2^31 elements (each 2^26).
big batch --layout TN --batch 33 --shape 8192x8192x128
# tf32 with an fp32 D over 2^31 elements.
big tf32 --layout TN --dtype tf32 --shape 65536x33000x128
finish
