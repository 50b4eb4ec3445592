#!/usr/bin/env bash
# GPU call for Stream-K changes: every schedule forced on the gpu_matmul groups that split
# tiles (the 10-run bitwise test reuses one workspace across launches), then the wave set and
# the calibration shapes with every candidate timed (`--sweep`) under Stream-K forced and the
# model's choice, and Nsight Compute's DRAM bytes for one Stream-K launch.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-streamk.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
SECONDS=0
T=.gpu/tests/gpu_matmul
DEEPGEMM_DECOMPOSITION=streamk timeout 120 $T --ignored --test-threads=1 --nocapture large repeated narrow alpha_beta >"$OUT/m-sk.txt" 2>&1
echo "streamk rc=$? ${SECONDS}s: $(groups "$OUT/m-sk.txt")"
DEEPGEMM_DECOMPOSITION=splitk timeout 90 $T --ignored --test-threads=1 --nocapture narrow alpha_beta repeated epilogues >"$OUT/m-split.txt" 2>&1
echo "splitk rc=$? ${SECONDS}s: $(groups "$OUT/m-split.txt")"
(cd "$OUT" && tar czf tests.tgz m-*.txt && rm -f m-*.txt)
B=.gpu/deepgemm-bench
S="--sweep --iters 20 --warmup 3"
echo "== waves, Stream-K forced" >"$OUT/sweep.txt"
DEEPGEMM_DECOMPOSITION=streamk $B --shapes .gpu/shapes/waves.txt $S --check none >>"$OUT/sweep.txt" 2>&1
echo "waves sk ${SECONDS}s"
echo "== waves, model" >>"$OUT/sweep.txt"
$B --shapes .gpu/shapes/waves.txt $S --check none >>"$OUT/sweep.txt" 2>&1
echo "== calibration shapes, model" >>"$OUT/sweep.txt"
$B --shapes .gpu/shapes/sweep.txt $S --check sample >>"$OUT/sweep.txt" 2>&1
echo "sweeps ${SECONDS}s"
CASES="${CASES:-streamk 1664x1664x8192 1}" bash scripts/gpu-ncu-small.sh
grep -E "^== |^[0-9]+x[0-9]+x[0-9]+ " "$OUT/sweep.txt"
