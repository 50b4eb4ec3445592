#!/usr/bin/env bash
# Prepared in session 54 (its GPU time spent), one call (~8 min; pack main, carry a devcache):
# does walking whole tile columns beat the default 16-row L2 group where a batch's A fits in the
# L2 and its B does not (B then streams from DRAM once per 16-row group instead of once)?
# `54e` (H100): 17000x128256x256 NN 4.40 ms at 16 rows, 4.05 at 64, 3.77 at 512 (cuBLASLt
# 3.51); 8 batches of 8192x8192x128 (both operands fit) 287 TFLOP/s at 16, 274 at 64; session
# 10 (H200): 4096x24576x1536 398.3 us at 16, 397.4 at 32 (its whole columns).
# Each shape three ways, deepgemm alone: the default, DEEPGEMM_WALK_COLUMNS=1 (the rule,
# `plan::sm90::walk_whole_columns`), DEEPGEMM_GROUP_M=4096 (whole columns everywhere).
# Predicted: `rule` shapes faster with the switch (the short-k ones by 5-15%, 4096x24576x1536
# ~0.3%); `ctl` shapes identical with the switch (the rule leaves them), the 4096 column telling
# whether the rule's bounds leave anything out. If it holds, turn the switch on by default.
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 590 bash scripts/gpu-session54f.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
Q="--no-cublas --check none --iters 10 --warmup 2"
# deepgemmSgemm / SgemmStridedBatched (session 54, CPU-tested only): exact fp32 and TF32.
# Predicted: all pass.
timeout 120 .gpu/tests/gpu_blas --ignored --test-threads=1 sgemm >"$OUT/gpu_blas-sgemm.txt" 2>&1
echo "== gpu_blas sgemm rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/gpu_blas-sgemm.txt")"
grep -m5 -E "FAIL|panicked" "$OUT/gpu_blas-sgemm.txt"
# Autotuning a misaligned decode call (session 54's fix: its packed plans could not be timed).
# Predicted: passes, with a `+pack_` plan in the table.
timeout 150 .gpu/tests/gpu_autotune --ignored --test-threads=1 --nocapture tunes_once >"$OUT/gpu_autotune.txt" 2>&1
echo "== gpu_autotune rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/gpu_autotune.txt" | tail -1)"
grep -m5 -E "FAIL|panicked" "$OUT/gpu_autotune.txt"
# Host overhead (issue 4): per-call CPU time of a 64x64x64 loop, deepgemm and cuBLASLt
# (last measured in session 4, at 18179ae).
timeout 120 "$B" --host-overhead >"$OUT/host-overhead.txt" 2>&1; echo "== host-overhead rc=$?"; tail -8 "$OUT/host-overhead.txt"
for s in "NN 17000x128256x256 rule" "TN 17000x128256x256 rule" "TN 4096x65536x512 rule" \
    "TN 4100x65536x512 rule" "TN 3000x100000x256 rule" "TN 4096x24576x1536 rule" \
    "TN 8192x32768x1024 ctl" "TN 6144x50000x2048 ctl" "NN 17000x32768x256 ctl" \
    "TN 8192x8192x8192 ctl" "TN 128256x17000x256 ctl"; do
    set -- $s
    bench d-$1-$2 $Q --layout $1 --shape $2
    DEEPGEMM_WALK_COLUMNS=1 bench w-$1-$2 $Q --layout $1 --shape $2
    DEEPGEMM_GROUP_M=4096 bench g-$1-$2 $Q --layout $1 --shape $2
done
# Out of sample: 24 fresh shapes the rule takes and 12 it leaves (scripts/shapes/walk-54-*),
# default and switch alternating, two rounds. Predicted: `rule` geomean 0.90-0.97 of the
# default's time, `ctl` 1.00 +- noise.
for r in 1 2; do
    for set in rule ctl; do
        bench walk-$set-d$r $Q --shapes scripts/shapes/walk-54-$set.txt
        DEEPGEMM_WALK_COLUMNS=1 bench walk-$set-w$r $Q --shapes scripts/shapes/walk-54-$set.txt
    done
done
# Clusters of 2 x 1 walk row pairs, so 16 groups of them cover 32 tile rows: `54e` had NN
# 17000x32768x256 at 0.835 ms on c2x1 against 0.956 unclustered (B, 16.8 MB, should fit in L2,
# but D's 1.1 GB streams through it). Clusters with the default walk and with whole columns.
for sh in 17000x128256x256 17000x32768x256; do
    DEEPGEMM_CLUSTER=2 bench c2-NN-$sh $Q --layout NN --shape $sh
    DEEPGEMM_CLUSTER=2 DEEPGEMM_GROUP_M=4096 bench c2g-NN-$sh $Q --layout NN --shape $sh
done
# The rule against cuBLASLt on the short-k shapes it moves (10 launches, both libraries).
DEEPGEMM_WALK_COLUMNS=1 bench w-lt --check none --iters 10 --warmup 2 --layout NN --shape 17000x128256x256 --shape 4096x65536x512
finish
