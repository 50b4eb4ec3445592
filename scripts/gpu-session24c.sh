#!/usr/bin/env bash
# Session 24 (~60 s): where a many-way split launch's time goes. DG_TRACE of split plans from
# `24a`'s sweeps (first and last CTA: a contributor and an owner), whose measured times run
# 2-3x their mainloop at the data-parallel rate (416x568x8000 on 128x128 sk20x100: 22.0 us for
# 25 k-iterations a CTA, ~8.3 us of mainloop at 0.33 us an iteration).
#   Predicted: mainloop (marks 3 -> 4) ~25 x 650 cycles; the rest split between the first
#   stage's wait (~3,500-4,500 cycles) and the owner's fixup growing with the split (4 partials
#   of 64 x 128 fp32 per consumer: ~4,000-8,000 cycles).
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session24c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile _bf16_bf16_tn_ >/dev/null; echo "precompile tn ${SECONDS}s"
for v in m128n128k64_s6_c1x1 m128n96k64_s6_c1x1 m128n64k64_s8_c1x1; do
    DEEPGEMM_VARIANT=$v trace "416x568x8000 $v" --shape 416x568x8000
done
trace "272x328x13248" --shape 272x328x13248
DEEPGEMM_VARIANT=m128n128k64_s6_c1x1 trace "192x576x12072 128" --shape 192x576x12072
DEEPGEMM_VARIANT=m128n128k64_s6_c1x1 trace "600x240x16144 128" --shape 600x240x16144
DEEPGEMM_VARIANT=m128n128k64_s6_c1x1 DEEPGEMM_DECOMPOSITION=dp trace "416x568x8000 dp" --shape 416x568x8000
finish
