#!/usr/bin/env bash
# Session 32, call a (~200 s, kernels carried; after scripts/gpu-session31c.sh on the same
# machine). This build's kernels are main's (`ef35f93`'s:
# session 32 changed host code only so far: `DEEPGEMM_PACK_D` and the bench's `--pad`).
#   (1. The run session 31 owed is its own call: scripts/gpu-session31c.sh, unchanged.)
#   2. The odd-leading-dimension cliff taken apart (deepgemm alone, 160 MiB, two rounds):
#      4096^3 with each operand's leading dimension + 1 (`--pad`), D stored in place down its
#      columns (`DEEPGEMM_PACK_D=0`, the model's choice) and through its aligned copy
#      (`DEEPGEMM_PACK_D=1`); 4095^3 and 4100^3 both ways. Predicted: a pack ~18-20 us an
#      operand; D in place ~20-25 us over 4096^3, through the copy ~12-18 us.
#   3. Decode traced (DG_TRACE, the model's plans): 1x4096x4096, 16x4096x4096, 64x4096x4096,
#      1x8192x8192: how much of each launch is its ramp, its stream and its split's fixup.
#   4. scripts/probes/tma-stream.cu (built there by nvcc): the loads of a decode GEMM alone, by
#      box shape, split and bulk copies, and the first stage's latency beside a plain load's.
#      Predicted: the 128-row tiles near 3.3-3.8 TB/s on the large matrices; bulk copies of
#      contiguous ranges at least as fast; a first stage ~3,000+ cycles.
#     here:  CUBINS=all bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session32a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
precompile_all
# 2. The cliff by operand.
W="--no-cublas --workspace-mib 160 --check sample --iters 30"
for r in 1 2; do
    bench odd-$r-base $W --shape 4096x4096x4096
    bench odd-$r-a $W --shape 4096x4096x4096 --pad 1,0,0,0
    bench odd-$r-b $W --shape 4096x4096x4096 --pad 0,1,0,0
    bench odd-$r-ab $W --shape 4096x4096x4096 --pad 1,1,0,0
    DEEPGEMM_PACK_D=0 bench odd-$r-d-inplace $W --shape 4096x4096x4096 --pad 0,0,0,1
    DEEPGEMM_PACK_D=1 bench odd-$r-d-copy $W --shape 4096x4096x4096 --pad 0,0,0,1
    DEEPGEMM_PACK_D=0 bench odd-$r-cliffs-inplace $W --shape 4095x4095x4095 --shape 4100x4100x4100
    DEEPGEMM_PACK_D=1 bench odd-$r-cliffs-copy $W --shape 4095x4095x4095 --shape 4100x4100x4100
done
# 4. The loads alone (first: no kernel of deepgemm's on the GPU meanwhile).
/usr/local/cuda/bin/nvcc -O3 -std=c++17 -arch=sm_90a -I kernels scripts/probes/tma-stream.cu -lcuda \
    -o /tmp/tma-stream 2>&1 | grep -v "warning\|Remark\|^ *\^\|^$" | head -5
timeout 120 /tmp/tma-stream >"$OUT/probe.txt" 2>&1; echo "== probe rc=$? ${SECONDS}s"; cat "$OUT/probe.txt"
# 3. Decode traced.
for s in 1x4096x4096 16x4096x4096 64x4096x4096 1x8192x8192; do
    trace "decode $s" --shape $s
done
finish
