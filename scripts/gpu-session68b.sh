#!/usr/bin/env bash
# Session 68 (~5 min): the tall 192-row tiles' ring epilogues (`_re`: the three consumers'
# staging in the ring's A tiles, one tile a CTA, unclustered and 1 x 2; 6 stages at 72-96 wide
# where the plain ones keep 4-5, 7 at 64, 5 at 112-128), first run. (1) Correct: the bench's
# check (float64 to 1024^3, else sample and cuBLASLt) with the tall tiles forced
# (DEEPGEMM_TALL=only, DEEPGEMM_CLUSTER=1 / 1x2) on ragged shapes, long k (the ring ones need
# 60 k-iterations) and short, both 16-bit types, the epilogues and beta (which the ring ones
# take through the general epilogue). (2) Timed: the tall candidates (TALL=only --sweep) and
# the default ones (--sweep), each interleaved with cuBLASLt, on 64 fresh TN shapes some tall
# tile puts under one wave (scripts/shapes/tall-68-s1/s2.txt); then the default plans against
# DEEPGEMM_TALL=1's on the shapes it moves. Predicted: the ring twin 3-8% faster than the plain
# tall tile where it gains a stage (5888x280x5632 ~46 us against 50.6 on the H100); tall tiles
# faster than the default's best on mid-sector k (k = 8 mod 16), not on aligned k.
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests      there: timeout 590 bash scripts/gpu-session68b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
"$B" --precompile "$(cat .gpu/shapes/tall-68-kernels.txt)" >/dev/null; echo "precompile ${SECONDS}s"
SPECS=("bf16 bf16 default 0" "fp16 fp16 gelu_bias 1" "bf16 bf16 relu_bias 0" "fp16 fp32 bias 1")
for cl in 1 1x2; do
    for spec in "${SPECS[@]}"; do
        set -- $spec
        out=fp32; [ "$2" = "$1" ] && out=same
        n=chk-c$cl-$1-$2-$3-b$4
        DEEPGEMM_CLUSTER=$cl DEEPGEMM_TALL=only timeout 60 "$B" --dtype $1 --out $out --epilogue $3 --beta $4 --iters 3 --warmup 1 \
            --shape 192x72x3904 --shape 193x73x4000 --shape 385x200x4104 --shape 577x129x4104 --shape 17x3x3968 \
            --shape 1000x300x3904 --shape 2999x271x5000 --shape 5888x280x5640 --shape 385x200x1000 >"$OUT/$n.txt" 2>&1
        echo "$n rc=$? PASS $(grep -cE ' PASS$' "$OUT/$n.txt") FAIL $(grep -cE ' FAIL$' "$OUT/$n.txt") kernels: $(grep -oE 'dg_sm90_[^ ,)]*|dg_portable[^ ,)]*' "$OUT/$n.txt" | sed 's/dg_sm90_[a-z0-9]*_[a-z0-9]*_tn_//' | sort -u | tr '\n' ' ')"
    done
done
echo "checks ${SECONDS}s"
for s in s1 s2; do
    DEEPGEMM_TALL=only sweep only-$s 100 --interleave --layout TN --shapes .gpu/shapes/tall-68-$s.txt
    sweep def-$s 100 --interleave --layout TN --shapes .gpu/shapes/tall-68-$s.txt
done
grep -hE "^[0-9]+x|sweep #|cuBLASLt, interleaved" "$OUT"/sweep-*-s1.txt | head -30
for r in 1 2; do
    [ $((560 - SECONDS)) -gt 30 ] || break
    bench TN_old-$r --layout TN --shapes .gpu/shapes/tall-68-moved.txt --check none --iters 30 --no-cublas
    DEEPGEMM_TALL=1 bench TN_new-$r --layout TN --shapes .gpu/shapes/tall-68-moved.txt --check none --iters 30 --no-cublas
done
python3 scripts/compare-runs.py "$OUT" "TN_new-*" "TN_old-*" 2>/dev/null | tail -4
finish
