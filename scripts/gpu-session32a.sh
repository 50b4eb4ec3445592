#!/usr/bin/env bash
# Session 32, call a (~400 s, kernels carried). This build's kernels are main's (`ef35f93`'s:
# session 32 changed host code only so far: `DEEPGEMM_PACK_D` and the bench's `--pad`).
#   1. The run session 31 owed (`31c` again, on main's exact kernels): every direct nvrtc_sm90
#      case, the gpu_matmul grid, forced onto Stream-K; against cuBLASLt with beta = 1 (bf16,
#      fp16, fp32 D) and random-21d beta = 1 / beta = 0. Predicted: all pass; 31c's figures
#      within 2% (1.058 / 1.060 / 0.824 / 0.860 / 0.881).
#   2. The odd-leading-dimension cliff taken apart (deepgemm alone, 160 MiB, two rounds):
#      4096^3 with each operand's leading dimension + 1 (`--pad`), D stored in place down its
#      columns (`DEEPGEMM_PACK_D=0`, the model's choice) and through its aligned copy
#      (`DEEPGEMM_PACK_D=1`); 4095^3 and 4100^3 both ways. Predicted: a pack ~18-20 us an
#      operand; D in place ~20-25 us over 4096^3, through the copy ~12-18 us.
#   3. Decode traced (DG_TRACE, the model's plans): 1x4096x4096, 16x4096x4096, 64x4096x4096,
#      1x8192x8192: how much of each launch is its ramp, its stream and its split's fixup.
#     here:  CUBINS=all bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session32a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
precompile_all
direct || { finish; exit 1; }
grid grid 200 || { finish; exit 1; }
DEEPGEMM_DECOMPOSITION=streamk grid grid-streamk 150
bench vs-cublas-beta-bf16 --beta 1 --check sample --shapes $S/staged-27d.txt
bench vs-cublas-beta-f16 --beta 1 --dtype fp16 --check sample --shapes $S/staged-27d.txt
bench vs-cublas-beta-f32 --beta 1 --out fp32 --check sample --shapes $S/staged-27d.txt
bench vs-cublas-random-beta --beta 1 --check sample --shapes $S/random-21d.txt
bench vs-cublas-random --check sample --shapes $S/random-21d.txt
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
# 3. Decode traced.
for s in 1x4096x4096 16x4096x4096 64x4096x4096 1x8192x8192; do
    trace "decode $s" --shape $s
done
finish
