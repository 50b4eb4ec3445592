#!/usr/bin/env bash
# Session 24 (~60 s): every CTA's span (dg_span, new in kernels/sm90/trace.cuh) on split and
# data-parallel launches. `24d`: 416x568x8000 on 128x128 sk20x100 ran 20.4-21.4 us under
# Nsight Compute while its first and last CTA (32 ns apart at entry) spanned 14.5 and 16.5 us;
# its data-parallel plan 42 against 40.6; 600x240x16144 sk10x110 27.8 against 27.1 (`24c`).
#   Predicted: the split launch's latest CTAs end ~4 us after CTA 99 (owners of full tiles:
#   CTA 99 owns the corner tile), the data-parallel ones within ~0.5 us of each other.
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session24e.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile _bf16_bf16_tn_ >/dev/null; echo "precompile tn ${SECONDS}s"
DEEPGEMM_VARIANT=m128n128k64_s6_c1x1 trace "416x568x8000 128" --shape 416x568x8000
DEEPGEMM_VARIANT=m128n128k64_s6_c1x1 DEEPGEMM_DECOMPOSITION=dp trace "416x568x8000 dp" --shape 416x568x8000
DEEPGEMM_VARIANT=m128n128k64_s6_c1x1 trace "600x240x16144 128" --shape 600x240x16144
for s in 416x568x8000 272x328x13248 352x344x712 2232x288x4256 1x4096x4096 4096x4096x4096; do
    trace "$s" --shape $s
done
finish
