#!/usr/bin/env bash
# Session 13, last call (branch next/sk-fixup, the kernels of 13d/13e): the grid's last group
# (13e's run stopped at its timeout inside transposed_orientation), the small-M set against
# cuBLASLt, and deepgemm alone against main (.gpu/old) on it: 13f ran next/early-sync (this
# branch plus a prologue change) 4% slower than main on 1x7168x16384 and 16x7168x16384
# (data-parallel 128 x 16 plans the fixup does not touch) and 4-8% faster on the split
# plans (64x2112x7168 18.7 against 20.3 us). Predicted: the group passes; the split plans
# faster as in 13f; the data-parallel ones within 1% of main (then 13f's 4% was the prologue).
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session13g.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
precompile_old m128n16k64,m128n64k64,m128n192k64_s4,m128n128k64_s6,m128n96k64,m128n224k64
timeout 100 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture transposed_orientation >"$OUT/matmul-to.txt" 2>&1
echo "gpu_matmul transposed_orientation rc=$? ${SECONDS}s: $(groups "$OUT/matmul-to.txt")"
bench small-m --shapes .gpu/shapes/small-m.txt
bench new-small-m --shapes .gpu/shapes/small-m.txt --no-cublas --check none
bench_old old-small-m --shapes .gpu/shapes/small-m.txt --no-cublas --check none
(cd "$OUT" && tar czf tests.tgz matmul-to.txt && rm -f matmul-to.txt)
