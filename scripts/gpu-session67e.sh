#!/usr/bin/env bash
# Session 67 (~2 min): the one-wave request bound's moves (67c, scripts/shapes/onewave-67-1.0-*)
# at the new default plans, checked: the bench's sample check (reference entries plus a full
# comparison with cuBLASLt) on each of the 118 shape-layouts.
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests      there: timeout 230 bash scripts/gpu-session67e.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
"$B" --precompile "$(cat .gpu/shapes/onewave-67-kernels.txt)" >/dev/null
echo "precompile ${SECONDS}s"
for l in TN NN TT NT; do
    f=.gpu/shapes/onewave-67-1.0-$(echo $l | tr A-Z a-z).txt
    timeout 60 "$B" --layout $l --shapes $f --check sample --iters 3 --warmup 1 >"$OUT/chk-$l.txt" 2>&1
    echo "$l rc=$? PASS $(grep -cE ' PASS$' "$OUT/chk-$l.txt") FAIL $(grep -cE ' FAIL$' "$OUT/chk-$l.txt") of $(grep -c . $f)"
done
finish
