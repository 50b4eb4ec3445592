#!/usr/bin/env bash
# Prepared in session 30, not yet run (~250 s with the kernels carried): wip/c-ahead.patch.
# The staged epilogue (every launch with beta != 0) loads each round's C into registers before
# staging the round, as raw bits (4 words an 8-row item for 16-bit C, 8 for fp32), so the
# loads' latency (L2 since prefetch_c_block) passes under the round's two barriers and buffer
# writes instead of being waited out after them, a round at a time. Not in the 8-column tail
# rounds of odd multiples of 8, nor for fp32 D wider than 224 (both spilled).
#   1. Correct: every direct nvrtc_sm90 case, the gpu_matmul grid (beta != 0 on every layout of
#      C, in place, batches, ragged and moved tiles), forced onto Stream-K (the owners' fixup
#      path takes the loads too). Predicted: all pass.
#   2. Timing against main (old), deepgemm alone: beta = 1 on staged-27d with fp32 D and bf16 D,
#      alternating twice; beta = 1 bf16 D on random-21d once each (every width and schedule);
#      fp32 D with a bias and beta = 0 once each (a control: the staged, non-plain path, where
#      the new code is compiled in but reads nothing); then against
#      cuBLASLt with beta = 1.
#   Predicted: beta = 1 0.90-0.95 of old's time with bf16 D (`30c`: 28.4 us at 1568x2416x800 on
#   128x248 against beta = 0's 15.5 on TMA stores, `27d`; 7 of its 10 rounds take the loads ahead), 0.92-0.97 with
#   fp32 D on the 5 of 8 shapes planned 136-184 wide (232 and 248 keep the old order: 1.00);
#   random-21d beta 1 0.95-0.98;
#   the control 1.00 +- 0.01; against cuBLASLt bf16 D beta 1 0.705 -> ~0.76, fp32 D 0.760 -> ~0.79.
#     here:  git apply wip/c-ahead.patch && CUBINS=all bash scripts/gpu-pack.sh &&
#            git checkout -- kernels && CUBINS=all bash scripts/gpu-pack-old.sh HEAD
#     there: bash scripts/gpu-session30d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
precompile_all
precompile_old all &
direct || { wait; finish; exit 1; }
wait
grid grid 200 || { finish; exit 1; }
DEEPGEMM_DECOMPOSITION=streamk grid grid-streamk 150
B1="--beta 1 --no-cublas --check none --shapes $S/staged-27d.txt"
for r in 1 2; do
    bench beta-f32-new-$r --out fp32 $B1
    bench_old beta-f32-old-$r --out fp32 $B1
    bench beta-bf16-new-$r $B1
    bench_old beta-bf16-old-$r $B1
done
bench random-beta-new-1 --beta 1 --no-cublas --check none --shapes $S/random-21d.txt
bench_old random-beta-old-1 --beta 1 --no-cublas --check none --shapes $S/random-21d.txt
bench beta0-bias-f32-new-1 --out fp32 --epilogue bias --no-cublas --check none --shapes $S/staged-27d.txt
bench_old beta0-bias-f32-old-1 --out fp32 --epilogue bias --no-cublas --check none --shapes $S/staged-27d.txt
bench vs-cublas-beta-f32 --beta 1 --out fp32 --check sample --shapes $S/staged-27d.txt
bench vs-cublas-beta-bf16 --beta 1 --check sample --shapes $S/staged-27d.txt
finish
