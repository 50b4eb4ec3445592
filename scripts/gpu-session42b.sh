#!/usr/bin/env bash
# Session 42, call b (~7 min): the skinny kernel (kernels/skinny/skinny.cuh, `plan::skinny`:
# decode's GEMMs, one side of D at most 16, mma.sync over a per-thread cp.async ring), planned
# first wherever it takes the problem. First correct: gpu_matmul's skinny_decode group (60
# cases, every 16-bit type pair, both orientations, epilogues, batches) and the groups whose
# decode shapes now route to it; then its timing against the same build with it off
# (DEEPGEMM_SKINNY=0: main's plans), cuBLASLt in each run: issue 4's small-M set and a fresh
# decode set (scripts/shapes/decode-42.txt), two rounds alternating.
# Predicted: M = 1 and 16 of the small-M set 0.6-0.8 of the time before (1.08x -> ~1.4x
# cuBLASLt), the set's geomean ~1.2x; M <= 16 at 70-85% of the HBM floor on the large ones.
#     here: save .gpu/cubins.txz (no sm90 kernel changed), bash scripts/gpu-pack.sh, put it back
#     there: bash scripts/gpu-session42b.sh
# (As run in session 42 the build planned the skinny kernel by default and DEEPGEMM_SKINNY=0
# gave the tile plans; the runs now name the opt-in, DEEPGEMM_SKINNY=1.)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
t() { timeout "$1" .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture "${@:2}" >>"$OUT/grid-skinny.txt" 2>&1; echo "== gpu_matmul ${*:2} rc=$? ${SECONDS}s"; }
DEEPGEMM_SKINNY=1 t 120 skinny_decode
grep -E "^group|FAIL|skinny variants|panicked" "$OUT/grid-skinny.txt" | head -20
t 120 narrow_and_swapped
t 60 repeated_runs_are_bitwise_identical
t 60 back_to_back_dependent_calls
echo "grid-skinny: $(groups "$OUT/grid-skinny.txt")"
for r in 1 2; do
    for set in small-m decode-42; do
        DEEPGEMM_SKINNY=1 bench "$set-new-$r" --layout TN --shapes .gpu/shapes/$set.txt --iters 30 --warmup 5 --check none
        bench "$set-old-$r" --layout TN --shapes .gpu/shapes/$set.txt --iters 30 --warmup 5 --check none
    done
done
# The plans each way (what ran).
DEEPGEMM_SKINNY=1 "$B" --plans --shapes .gpu/shapes/decode-42.txt > "$OUT/plans-decode-42.txt" 2>&1
finish
