#!/usr/bin/env bash
# Session 68 (~4 min): ring epilogues in the multicast clusters of the 128-row tiles (`_re` in
# 2 x 1, 2 x 2, 1 x 2, 1 x 4: a stage more, one tile a CTA; `DEEPGEMM_RING_CLUSTERS`), first
# run. (1) Correct: the bench's check (float64 to 1024^3, else sample and cuBLASLt) with them
# forced (DEEPGEMM_RING_CLUSTERS=only, DEEPGEMM_CLUSTER=2 / 4 / 1x2 / 1x4) on ragged shapes of
# at least 60 k-iterations, both 16-bit types, the epilogues and beta (the general epilogue).
# (2) Timed: the 60 shape-layouts among 1,600 fresh TN shapes whose first plan it moves
# (scripts/shapes/ringc-68-moved.txt), on against off in one build, alternating twice.
# Predicted: 0.97-0.99 of the time (the unclustered ring twins ran 0.93-1.01 in session 17,
# the tall ones 0.947 in `68b`).
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests      there: timeout 590 bash scripts/gpu-session68d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
"$B" --precompile "$(cat .gpu/shapes/ringc-68-kernels.txt)" >/dev/null; echo "precompile ${SECONDS}s"
SPECS=("bf16 bf16 default 0" "fp16 fp16 gelu_bias 1" "bf16 bf16 relu_bias 0")
for cl in 2 4 1x2 1x4; do
    for spec in "${SPECS[@]}"; do
        set -- $spec
        n=chk-c$cl-$1-$3-b$4
        DEEPGEMM_CLUSTER=$cl DEEPGEMM_RING_CLUSTERS=only timeout 60 "$B" --dtype $1 --epilogue $3 --beta $4 --iters 3 --warmup 1 \
            --shape 1000x1000x4096 --shape 1500x1100x5000 --shape 2000x500x4104 --shape 129x700x3968 --shape 1000x300x3904 \
            --shape 2999x271x5000 --shape 385x1000x4104 --shape 1000x2000x4096 >"$OUT/$n.txt" 2>&1
        echo "$n rc=$? PASS $(grep -cE ' PASS$' "$OUT/$n.txt") FAIL $(grep -cE ' FAIL$' "$OUT/$n.txt") kernels: $(grep -oE 'dg_sm90_[^ ,)]*|dg_portable[^ ,)]*' "$OUT/$n.txt" | sed 's/dg_sm90_[a-z0-9]*_[a-z0-9]*_tn_//' | sort -u | tr '\n' ' ')"
    done
done
echo "checks ${SECONDS}s"
for r in 1 2; do
    [ $((560 - SECONDS)) -gt 60 ] || break
    bench rc_off-$r --layout TN --shapes .gpu/shapes/ringc-68-moved.txt --check none --iters 30 --no-cublas >/dev/null
    DEEPGEMM_RING_CLUSTERS=1 bench rc_on-$r --layout TN --shapes .gpu/shapes/ringc-68-moved.txt --check none --iters 30 --no-cublas >/dev/null
    echo "round $r ${SECONDS}s"
done
python3 scripts/compare-runs.py "$OUT" "rc_on-*" "rc_off-*" 2>/dev/null | tail -4
finish
