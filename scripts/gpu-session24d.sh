#!/usr/bin/env bash
# Session 24 (~90 s): whether the ~3-6 us between a launch's bench time and its DG_TRACE span
# (CTA entry to store) is inside the kernel. `24c`: 416x568x8000 on 128x128 sk20x100 traced
# 15.7 us against 22.0 measured (`24a`), its data-parallel plan 39.8 against 42.8. Nsight
# Compute's kernel duration (clocks not locked) of the same launches, and the raw trace lines
# (their entry globaltimers: how far apart the first and last CTA start).
#   Predicted: the kernel durations within ~1 us of the traced spans (the gap is launch cost
#   outside the kernel, the same for both libraries), CTA entries within ~1 us.
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session24d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile _bf16_bf16_tn_ >/dev/null; echo "precompile tn ${SECONDS}s"
export DEEPGEMM_VARIANT=m128n128k64_s6_c1x1
for dec in auto dp; do
    DEEPGEMM_DECOMPOSITION=$dec DEEPGEMM_NVRTC_DEFINES=DG_TRACE timeout 30 "$B" --no-cublas --iters 3 --warmup 1 --check none \
        --shape 416x568x8000 2>&1 | grep "^dg_trace" | tail -4 | tee -a "$OUT/traces.txt"
    DEEPGEMM_DECOMPOSITION=$dec timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:dg_sm90 \
        "$B" --no-cublas --iters 5 --warmup 1 --check none --shape 416x568x8000 --shape 600x240x16144 >"$OUT/ncu-$dec.txt" 2>&1
    echo "== ncu $dec rc=$? ${SECONDS}s"; grep -E "dg_sm90|gpu__time_duration" "$OUT/ncu-$dec.txt" | sed 's/dg_sm90_bf16_bf16_tn_//' | cut -c1-150 | tail -24
    DEEPGEMM_DECOMPOSITION=$dec bench "bench-$dec" --no-cublas --shape 416x568x8000 --shape 600x240x16144
done
finish
