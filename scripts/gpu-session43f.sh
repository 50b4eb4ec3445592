#!/usr/bin/env bash
# Session 43, call f (~5 min). (1) The skinny kernels after sharing their chunk mmas, partials
# and epilogue (`chunk_mmas`, `store_partials`, `finish_rows` in kernels/skinny/skinny.cuh) and
# the m16n8k16 dispatch with the portable mainloop (`Mma16816`, ptx/mma.cuh): same instruction
# mix, a few integer instructions scheduled differently in 14 of 48 CUBINs. gpu_matmul's
# skinny_decode group (and narrow_and_swapped, the bitwise repeats) under DEEPGEMM_SKINNY=1 in
# both forms (bulk, and DEEPGEMM_SKINNY_BULK=0 for the cp.async one), the bench's check on
# decode shapes. (2) Why deepgemm's 64x64 tile takes ~540 cycles a k-step where cuBLASLt's
# 64x64 (4 x 2 clusters) takes ~330 at the same tiling (`43c`, `43d`): Nsight Compute's warp
# stall reasons, pipe and memory sections for the solo 64x64, the default plan and cuBLASLt at
# 928x368x3968 and 104x256x15288 (TN).
#     here: bash scripts/gpu-pack.sh (CUBINS optional)    there: bash scripts/gpu-session43f.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
t() { timeout "$1" .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture "${@:3}" >>"$OUT/$2.txt" 2>&1; echo "== gpu_matmul $2 ${*:3} rc=$? ${SECONDS}s"; }
export DEEPGEMM_SKINNY=1
t 120 grid-bulk skinny_decode
t 60 grid-bulk narrow_and_swapped
t 40 grid-bulk repeated_runs_are_bitwise_identical
echo "grid-bulk: $(groups "$OUT/grid-bulk.txt")"
DEEPGEMM_SKINNY_BULK=0 t 120 grid-cpasync skinny_decode
echo "grid-cpasync: $(groups "$OUT/grid-cpasync.txt")"
grep -vE '^\s*#|^\s*$' .gpu/shapes/decode-42.txt > /tmp/decode.txt
bench skinny-check --layout TN --shapes /tmp/decode.txt --iters 5 --warmup 1
echo "skinny-check: $(grep -c -- '-> PASS' "$OUT/skinny-check.txt") PASS, $(grep -c -- '-> FAIL' "$OUT/skinny-check.txt") FAIL"
unset DEEPGEMM_SKINNY
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
SEC="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section LaunchStats"
for s in 928x368x3968 104x256x15288; do
    for mode in default solo; do
        echo "== $s $mode" >>"$OUT/ncu-stalls.txt"
        if [ $mode = solo ]; then export DEEPGEMM_SOLO=1 DEEPGEMM_VARIANT=m64n64k64_s5; fi
        timeout 90 "$NCU" --clock-control none -k 'regex:^(dg_|nvjet)' -c 2 $SEC \
            .gpu/deepgemm-bench --shape "$s" --layout TN --iters 1 --warmup 0 --check none >>"$OUT/ncu-stalls.txt" 2>&1
        echo "== ncu $s $mode rc=$? ${SECONDS}s"
        unset DEEPGEMM_SOLO DEEPGEMM_VARIANT
    done
done
finish
