#!/usr/bin/env bash
# Session 30 (~200 s): C brought into L2 during the mainloop (kernels/sm90/epilogue.cuh
# prefetch_c_block: each consumer warpgroup asks for its 64 x BLOCK_N block of C, line by line,
# when beta != 0 and the unit is its tile's last). The staged epilogue reads C a round at a
# time between the rounds' barriers, so each round waited out a DRAM latency: fp32 D with
# beta = 1 ran 34.3 us at 1568x2416x800 against 21.9 with beta = 0 (cuBLASLt 24.8, `30a`).
#   1. Correct: the gpu_matmul grid (beta != 0 on every layout of C, in place, batches,
#      ragged tiles), then forced onto Stream-K. Predicted: all pass (a prefetch changes no
#      value).
#   2. Timing, this build (new) against main before it (old), deepgemm alone: beta = 1 with
#      fp32 D on staged-27d twice, with bf16 D once, beta = 0 once (a control); then against
#      cuBLASLt, beta = 1, fp32 and bf16 D.
#   Predicted: fp32 D beta 1 0.80-0.85 of old's time (34.3 -> ~28 us), bf16 D beta 1 0.85-0.90,
#   beta 0 1.00 +- 0.01; against cuBLASLt fp32 D beta 1 0.72 -> ~0.85.
#     here:  git apply wip/prefetch-c.patch && CUBINS=all bash scripts/gpu-pack.sh &&
#            git checkout -- kernels && CUBINS=all bash scripts/gpu-pack-old.sh HEAD
#            (HEAD: main without the patch)
#     there: bash scripts/gpu-session30c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
precompile_all
precompile_old all &
grid grid 200 || { wait; finish; exit 1; }
DEEPGEMM_DECOMPOSITION=streamk grid grid-streamk 150
wait
B1="--beta 1 --no-cublas --check none --shapes $S/staged-27d.txt"
for r in 1 2; do
    bench beta-f32-new-$r --out fp32 $B1
    bench_old beta-f32-old-$r --out fp32 $B1
done
bench beta-bf16-new-1 $B1
bench_old beta-bf16-old-1 $B1
bench beta0-f32-new-1 --out fp32 --no-cublas --check none --shapes $S/staged-27d.txt
bench_old beta0-f32-old-1 --out fp32 --no-cublas --check none --shapes $S/staged-27d.txt
bench vs-cublas-beta-f32 --beta 1 --out fp32 --check sample --shapes $S/staged-27d.txt
bench vs-cublas-beta-bf16 --beta 1 --check sample --shapes $S/staged-27d.txt
finish
