#!/usr/bin/env bash
# Session 13, third call (main at the commit packed): where a Stream-K launch's ~30 us over
# its mainloop goes (session 4: 1664^2 x 8192 on 128x256 tiles, Stream-K 88 us against 58 us of
# mainloop), the wave set against cuBLASLt at main, and a decode launch's phases with and
# without the L2 flush.
# Predicted: 1664^2 on 128x240 (91 tiles, as 128x256), Stream-K over 132 CTAs: each CTA's
# mainloop ~88 k-steps x ~1,020 cycles = ~90k cycles; data-parallel ~128 x 1,020 = ~131k. If
# the trace's end (mark 7) sits ~45k cycles past the Stream-K mainloop, the marks 8-11
# (partial stored / flag raised / partials waited / fixed-up epilogue) say which part.
# Wave set: as session 10 (geomean ~0.95). 1x4096x4096: k-step cycles equal with and without
# the flush if the loads are not what paces it.
#     here:  bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session13c.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile m128n240k64_s4_c1x1,m128n16k64_s11,m128n256k64_s4_c1x1,m128n176k64_s5_c1x1,m128n160k64_s5_c1x1,m128n224k64_s4_c1x1,m128n128k64_s6_c1x1 >/dev/null
echo "precompile ${SECONDS}s"
# --plans under each forced decomposition (scripts/shapes as here): rank 4 / 5 are 128x240.
DEEPGEMM_DECOMPOSITION=streamk trace "1664^2 streamk n240" --shape 1664x1664x8192 --algo-index 4
DEEPGEMM_DECOMPOSITION=dp trace "1664^2 dp n240" --shape 1664x1664x8192 --algo-index 5
DEEPGEMM_DECOMPOSITION=streamk trace "2176^2 streamk n256" --shape 2176x2176x8192 --algo-index 5
for i in 1 2; do
    DEEPGEMM_DECOMPOSITION=streamk bench sk-1664-n240-$i --shape 1664x1664x8192 --algo-index 4 --no-cublas --check none
    DEEPGEMM_DECOMPOSITION=dp bench dp-1664-n240-$i --shape 1664x1664x8192 --algo-index 5 --no-cublas --check none
done
trace "1x4096x4096 flushed" --shape 1x4096x4096
trace "1x4096x4096 no flush" --shape 1x4096x4096 --no-flush
trace "1x8192x8192 flushed" --shape 1x8192x8192
trace "1x8192x8192 no flush" --shape 1x8192x8192 --no-flush
bench waves --shapes .gpu/shapes/waves.txt
