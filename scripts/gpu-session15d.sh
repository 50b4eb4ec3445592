#!/usr/bin/env bash
# Session 15, branch next/slab-reuse against main (15c's slab plans): a block skips a copy
# the block before made (so a row slab's rows of A are copied once, not once per column
# slab), one operand may be cut while the other is copied whole, and the slab plans are listed
# fastest first. Host code only; kernels are main's.
# Predicted: the gpu_pack groups pass; with 32 MiB, 4097^3 388 -> ~350 us (slab2x3 with A
# reused), 4095^3 304 -> ~286 (slab2x2), 4100^3 385 -> ~350, 8192x1024x4097 -> slab4x1
# (model 185 us), NN 768x8192x50257 unchanged (~3.1 ms: only B cut).
#     here:  git checkout next/slab-reuse && bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session15d.sh  (.gpu carried, ~200 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
precompile_old m128n2,m128n1,m128n9,m128n6
timeout 150 .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture \
    too_little_workspace odd_leading_dimensions >"$OUT/pack.txt" 2>&1
echo "gpu_pack rc=$? ${SECONDS}s: $(groups "$OUT/pack.txt")"
S="--shape 4097x4097x4097 --shape 4095x4095x4095 --shape 4100x4100x4100 --shape 8192x1024x4097 --iters 10 --warmup 2 --workspace-mib 32"
alternate 2 $S
bench nn-new --layout NN --shape 768x8192x50257 --iters 5 --warmup 1 --workspace-mib 32
finish
