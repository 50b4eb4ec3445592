#!/usr/bin/env bash
# Session 12 (run as part of 12d), branch next/l2-stream: is the small-M gap the L2 flush's dirty lines? The bench
# flushes L2 with a memset (as the peers' do_bench does), which leaves L2 full of dirty lines;
# a GEMM streaming B (N x K, read once when M fits one tile) evicts them, so HBM also writes
# back about as many bytes as it reads. 1x4096x4096 takes ~19 us against 7 us of reads at
# 4.8 TB/s: ~8 us more than reads plus launch, about 33.5 MB of write-back at ~4.3 TB/s.
# Loads marked evict_first replace each other instead of the dirty lines.
# Predicted (deepgemm alone, us): with B evict_first (DG_L2_HINT_B=1) 1x4096x4096 19 -> ~12,
# 16x4096x4096 ~19.5 -> ~12.5, 1x28672x8192 (470 MB, 10x L2) within 5%; A evict_first alone
# changes nothing (A is tiny); 4096^3 (B re-read by 32 m-tiles) slower with B evict_first.
# If the dirty lines are not the cause: every mode within 3%.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-branch.sh next/l2-stream l2-stream
#     there: (cd .gpu/l2-stream && OUT=$OUT/l2 bash scripts/gpu-session12e.sh)
# Ran at 40f9e2e (from 12d). The DG_L2_HINT_* defines are gone since: SM90_FLAG_STREAM_A/_B,
# set by the host where an operand is loaded once, replace them (12f).
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S="--shape 1x4096x4096 --shape 16x4096x4096 --shape 64x4096x4096 --shape 128x4096x4096 --shape 1x2112x7168 --shape 16x7168x2048 --shape 1x28672x8192 --shape 127x4095x4096 --shape 4096x4096x4096"
for mode in "" DG_L2_HINT_B=1 DG_L2_HINT_A=1 DG_L2_HINT_A=1,DG_L2_HINT_B=1; do
    DEEPGEMM_NVRTC_DEFINES=$mode bench "hint-${mode:-none}" $S --no-cublas --check none
done
DEEPGEMM_NVRTC_DEFINES=DG_L2_HINT_B=1 bench "hint-B-check" --shape 16x4096x4096 --shape 1x4096x4096
bench "flush-off" $S --no-cublas --check none --no-flush
