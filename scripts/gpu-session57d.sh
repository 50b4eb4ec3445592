#!/usr/bin/env bash
# Session 57, fourth call (~2 min with a devcache): the merged default (`crossings_free`: the
# cluster hybrid first at 8192³ TN in tf32, bf16 and fp16, and NN bf16 8192³ / 4096x28672x8192)
# against cuBLASLt, the bench's own loop (deepgemm and cuBLASLt alternating): three rounds of
# tf32 8192³ TN, one of set A TN, fp16 8192³ TN and the two NN shapes.
# Predicted: tf32 8192³ 1.03-1.06x cuBLASLt (57a: the same plan as a sweep candidate 1.055-1.057x
# on an H100); set A within 1% of 57a's first plans but 8192³ ~1% faster.
#     here:  bash scripts/gpu-pack.sh; cp a devcache to .gpu/cubins.txz
#     there: timeout 300 bash scripts/gpu-session57d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
for r in 1 2 3; do
    bench tf32-tn-$r --dtype tf32 --iters 20 --warmup 3 --check none --shape 8192x8192x8192
done
bench set-a --iters 30 --check none --shapes .gpu/shapes/set-a.txt
bench fp16-8192 --dtype fp16 --iters 30 --check none --shape 8192x8192x8192
bench nn-8192 --layout NN --iters 30 --check none --shape 8192x8192x8192 --shape 4096x28672x8192
grep -h -E "^[0-9]+x" "$OUT"/*.txt
finish
