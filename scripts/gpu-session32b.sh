#!/usr/bin/env bash
# Session 32, call b (~250 s, kernels carried; the same build as 32a: main's kernels).
#   1. D at an odd leading dimension by tile width (deepgemm alone, 160 MiB, two rounds):
#      4096^3 with D's leading dimension 4097, data-parallel, unclustered, forced onto each of
#      nine widths (8 to 13 staged rounds), D stored in place down its columns
#      (DEEPGEMM_PACK_D=0) and through its aligned copy (=1). `32a` measured 256 wide: in place
#      +16.4 us over the aligned D, the copy +20.4; 4100^3 on 208 wide (13 rounds of 16): the
#      copy 5 us faster. Predicted: in place grows with the rounds (~0.25 us a round and wave
#      plus ~8 ns a column), the copy ~20 us whatever the width.
#   2. The same choice at the model's plans on other odd-D shapes: 4097^3, 4095^3, 4100^3,
#      PyTorch's logits at vocabulary 50257 (50257x8192x768, D's leading dimension 50257),
#      2049x3000x1000, 1000x3000x4000 with D's ld + 1.
#   3. Small launches against cuBLASLt (tiny shapes, where a launch is its fixed costs) and
#      DG_TRACE of two of them; scripts/probes/launch-cost.cu: an empty kernel's launch by
#      shared-memory size, after the bench's memset and after itself, and one TMA box's latency
#      against a plain load's.
#     here:  CUBINS=all bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session32b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
/usr/local/cuda/bin/nvcc -O3 -std=c++17 -arch=sm_90a -I kernels scripts/probes/launch-cost.cu -lcuda \
    -o /tmp/launch-cost 2>&1 | grep -v "warning\|Remark\|^ *\^\|^$" | head -5
timeout 60 /tmp/launch-cost >"$OUT/probe-launch.txt" 2>&1; echo "== launch-cost rc=$? ${SECONDS}s"; cat "$OUT/probe-launch.txt"
# 1. By width.
W="--no-cublas --workspace-mib 160 --check sample --iters 30 --shape 4096x4096x4096 --pad 0,0,0,1"
for r in 1 2; do
    for w in 256 248 232 224 208 192 176 160 128; do
        DEEPGEMM_CLUSTER=1 DEEPGEMM_DECOMPOSITION=dp DEEPGEMM_VARIANT=m128n${w}k64 DEEPGEMM_PACK_D=0 bench w$w-$r-inplace $W
        DEEPGEMM_CLUSTER=1 DEEPGEMM_DECOMPOSITION=dp DEEPGEMM_VARIANT=m128n${w}k64 DEEPGEMM_PACK_D=1 bench w$w-$r-copy $W
    done
done
bench w-aligned --no-cublas --iters 30 --check sample --shape 4096x4096x4096
# 2. Other odd-D shapes, both ways, at the model's plans.
V="--no-cublas --workspace-mib 160 --check sample --iters 30"
for r in 1 2; do
    for d in 0 1; do
        DEEPGEMM_PACK_D=$d bench odd-$r-pd$d $V --shape 4097x4097x4097 --shape 4095x4095x4095 --shape 4100x4100x4100 --shape 50257x8192x768 --shape 2049x3000x1000
        DEEPGEMM_PACK_D=$d bench oddd-$r-pd$d $V --pad 0,0,0,1 --shape 1000x3000x4000 --shape 2048x2048x2048 --shape 8192x8192x1024
    done
done
# 3. Small launches.
bench tiny --check sample --shape 64x64x64 --shape 128x128x128 --shape 256x256x256 --shape 512x512x512 --shape 128x128x4096 --shape 256x256x1024 --shape 1024x1024x1024
trace "tiny 128x128x128" --shape 128x128x128
trace "tiny 256x256x1024" --shape 256x256x1024
finish
