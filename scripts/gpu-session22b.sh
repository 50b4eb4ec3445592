#!/usr/bin/env bash
# Prepared in session 21, not yet run: wip/split-n-64.patch with a 64x32 split-N tile added
# (each consumer 64x16; 17 stages, 168 registers, no spills), for decode computed swapped:
# twice the tiles of 128x16 (1x4096x4096: 64 instead of 32), each CTA streaming half the
# weights' rows, as cuBLASLt's 64x8 tiles split in 2 over 128 CTAs do (`20i`: its 128 CTAs busy
# 91% of the time, deepgemm's 64 split-K pairs of 128x16 47%). Under DEEPGEMM_SPLITN=1 the model
# (uncalibrated for split-N) plans 1x4096x4096 on 64x32 sn +swap, 64 CTAs data-parallel.
#   1. The direct split-N cases (64x32 among them; the script stops on a failure).
#   2. The gpu_matmul grid under DEEPGEMM_SPLITN=1, data-parallel and forced onto Stream-K.
#   3. The decode rows of small-m (M = 1, 16) and M = 64 swept: every candidate under
#      DEEPGEMM_SPLITN=1 (split-N only), next to main's candidates in the same run.
#   Predicted: on the ~30 MB decode shapes (4096x4096, 2112x7168, 4096x7168) 64x32 split-N
#   5-15% faster than main's 128x16 split-K pairs (1x4096x4096 13.9 -> ~12 us); equal or slower
#   on the larger ones, which stream at 64-77% of the HBM floor already; M = 64 unclear.
#     here:  git apply wip/split-n-64.patch && bash scripts/gpu-pack.sh && git checkout kernels src tests
#     there: bash scripts/gpu-session22b.sh (.gpu carried, ~450 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_SM90_VARIANTS=_sn direct || { finish; exit 1; }
precompile_all
for dec in auto streamk; do
    DEEPGEMM_SPLITN=1 DEEPGEMM_DECOMPOSITION=$dec timeout 170 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/grid-splitn-$dec.txt" 2>&1
    echo "grid split-N $dec: $(groups "$OUT/grid-splitn-$dec.txt") ${SECONDS}s"
    grep -q "^test result: ok" "$OUT/grid-splitn-$dec.txt" || { finish; exit 1; }
done
grep -E '^(1|16|64)x' .gpu/shapes/small-m.txt > /tmp/decode.txt
timeout 150 "$B" --sweep --no-cublas --check sample --iters 20 --warmup 3 --shapes /tmp/decode.txt >"$OUT/sweep-decode-main.txt" 2>&1
echo "== sweep main rc=$? ${SECONDS}s"
DEEPGEMM_SPLITN=1 timeout 150 "$B" --sweep --no-cublas --check sample --iters 20 --warmup 3 --shapes /tmp/decode.txt >"$OUT/sweep-decode-splitn.txt" 2>&1
echo "== sweep split-N rc=$? ${SECONDS}s"
finish
