#!/usr/bin/env bash
# Prepared in session 52 (no GPU lent), one call (~5 min), after scripts/gpu-session52a.sh (the
# tma-phase probe) has shown TMA loading right from start coordinates off the 16-byte grid (if
# its copy checks fail, skip 1 and 3: the shifted maps are then no way, and the switch stays off).
#   1. gpu_pack with DEEPGEMM_TMA_SHIFT=1 (views into wider lines read in place through shifted
#      maps: the new `shifted_views_are_read_in_place`, 32 cases, every plan in place; the other
#      groups' flat offsets still packed) and without it (the new group packed). Predicted: all
#      pass both ways (15 / 0 each).
#   2. gpu_blas (`gemm_ex_math_mode`, new: TF32 under TF32_TENSOR_OP_MATH, exact under pedantic
#      math; session 51's `gemm_ex_with_workspace`). Predicted: all pass.
#   3. Views into wider lines (`--pad 8,8,0,0 --offset A,B`, MIN_ALIGNMENT announced to both
#      libraries) with and without the switch, against cuBLASLt and against the same shapes'
#      aligned views (`--offset 0,0`). Predicted: with the switch within ~3% of the aligned
#      views at decode (memory-bound) and within ~10% on the large shapes (rows straddling
#      sectors: session 49b's 1.26-1.51x ingest at mid-sector pitches, ~7% in the kernel);
#      16x4096x4096 with A off: ~12.5 us against ~27 us packed (`--plans`: 12.4 / 27.4 / 57.2).
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 590 bash scripts/gpu-session52b.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_TMA_SHIFT=1 timeout 150 .gpu/tests/gpu_pack --ignored --test-threads=1 >"$OUT/gpu_pack-shift.txt" 2>&1
echo "== gpu_pack shift rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/gpu_pack-shift.txt")"
grep -m5 -E "FAIL|panicked" "$OUT/gpu_pack-shift.txt"
timeout 100 .gpu/tests/gpu_pack --ignored --test-threads=1 shifted_views >"$OUT/gpu_pack-noshift.txt" 2>&1
echo "== gpu_pack no shift rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/gpu_pack-noshift.txt")"
grep -m5 -E "FAIL|panicked" "$OUT/gpu_pack-noshift.txt"
timeout 120 .gpu/tests/gpu_blas --ignored --test-threads=1 >"$OUT/gpu_blas.txt" 2>&1
echo "== gpu_blas rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/gpu_blas.txt")"
grep -m5 -E "FAIL|panicked" "$OUT/gpu_blas.txt"
V="--check sample --iters 20 --warmup 3 --pad 8,8,0,0 --shape 1x4096x4096 --shape 16x4096x4096 --shape 16x14336x4096 --shape 128x4096x4096 --shape 4096x4096x4096 --shape 8192x8192x8192 --shape 4096x14336x4096"
bench view-aligned $V --offset 0,0
for o in 1,0 0,3 5,7; do
    DEEPGEMM_TMA_SHIFT=1 bench view-shift-${o/,/-} $V --offset $o
    bench view-pack-${o/,/-} $V --offset $o
done
finish
