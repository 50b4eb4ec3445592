#!/usr/bin/env bash
# Session 19, third call: is the under-wave gap to cuBLASLt (0.84) the rows' alignment?
# Each long-k under-wave shape with k as drawn (rows 16-48 bytes off the 128-byte lines) and k
# rounded to a multiple of 64, both libraries, then DG_TRACE phase clocks at 496x1000x11400 and
# 11392 (main's plan: 128x64 split-K pairs).
#   Predicted: cuBLASLt's time moves by < 3% between the two k; deepgemm's by 5-10% (18a's
#   promotion left the off-line shapes ~3% behind the aligned ones at 2048x2048x8200).
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
for r in 1 2; do bench kalign-$r --check none --shapes .gpu/shapes/kalign-19d.txt; done
trace "496x1000x11400" --shape 496x1000x11400
trace "496x1000x11392" --shape 496x1000x11392
DEEPGEMM_VARIANT=m128n128k64_s6_c1x1 trace "496x1000x11400 128x128 SK" --shape 496x1000x11400
DEEPGEMM_VARIANT=m128n128k64_s6_c1x1 trace "496x1000x11392 128x128 SK" --shape 496x1000x11392
finish
