#!/usr/bin/env bash
# Session 54, fifth call (~5 min): short-k GEMMs with huge outputs. `54b` (2 launches each) had
# deepgemm at 0.77x cuBLASLt on 17000x128256x256 NN, 0.90 TT, 0.87 on 33 batches of
# 8192x8192x128 TN, while 128256x17000x256 NT ran 1.15x: the same work the other way round.
#   1. One orientation, every layout, and the other orientation (10 launches, cuBLASLt beside).
#      Predicted: if the walk over tiles (16 tile rows, then one column) is what costs, the
#      m < n orientation trails in every layout and GROUP_M moves it.
#   2. DEEPGEMM_GROUP_M 4 / 64 / 512 on NN 17000x128256x256 and TN 128256x17000x256, and on the
#      batched 8192x8192x128 (deepgemm alone).
#   3. Other tiles forced (DEEPGEMM_VARIANT: 128x64, 128x128, 128x192, 128x256 in clusters of
#      2 x 1 and 2 x 2; DEEPGEMM_PINGPONG=1: 64x256) on 8 batches of 8192x8192x128 TN and 17000x32768x256 NN.
#     there: timeout 560 bash scripts/gpu-session54e.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
Q="--check none --iters 10 --warmup 2"
for l in NN TN NT TT; do bench o1-$l $Q --layout $l --shape 17000x128256x256; done
for l in NN TN NT TT; do bench o2-$l $Q --layout $l --shape 128256x17000x256; done
bench batch $Q --layout TN --batch 33 --shape 8192x8192x128
bench batch-nn $Q --layout NN --batch 33 --shape 8192x8192x128
for g in 4 64 512; do
    DEEPGEMM_GROUP_M=$g bench g$g-nn --no-cublas $Q --layout NN --shape 17000x128256x256
    DEEPGEMM_GROUP_M=$g bench g$g-tn2 --no-cublas $Q --layout TN --shape 128256x17000x256
    DEEPGEMM_GROUP_M=$g bench g$g-batch --no-cublas $Q --layout TN --batch 33 --shape 8192x8192x128
done
for v in m128n64k64_s8_c1x1 m128n128k64_s6_c1x1 m128n192k64_s4_c1x1 m128n256k64_s4_c2x1 m128n256k64_s4_c2x2; do
    DEEPGEMM_VARIANT=$v bench v-$v-b8 --no-cublas $Q --layout TN --batch 8 --shape 8192x8192x128
    DEEPGEMM_VARIANT=$v bench v-$v-nn --no-cublas $Q --layout NN --shape 17000x32768x256
done
DEEPGEMM_PINGPONG=1 bench pp-b8 --no-cublas $Q --layout TN --batch 8 --shape 8192x8192x128
DEEPGEMM_PINGPONG=1 bench pp-nn --no-cublas $Q --layout NN --shape 17000x32768x256
bench ref-b8 $Q --layout TN --batch 8 --shape 8192x8192x128
bench ref-nn $Q --layout NN --shape 17000x32768x256
finish
