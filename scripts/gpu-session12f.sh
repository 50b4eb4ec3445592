#!/usr/bin/env bash
# Session 12, branch next/l2-stream after 12e: the host sets SM90_FLAG_STREAM_A / _B when every
# element of A / B is loaded once (one tile column covers n / one tile row covers m), and the
# producer then loads that operand with an L2 evict_first policy. 12e (the same hint forced on
# by DG_L2_HINT_*) measured, deepgemm alone: 1x4096x4096 18.9 -> 17.3 us, 16x4096x4096 18.6 ->
# 17.0, 64x4096x4096 20.7 -> 18.5, 128x4096x4096 20.4 -> 18.3, 127x4095x4096 21.4 -> 19.3,
# 1x28672x8192 128.8 -> 128.0, 4096^3 unchanged.
# Predicted: every direct case passes; the small-M shapes 1.3-2 us faster, small-M geomean
# 0.974 -> ~1.02; 127x4095x4096 ~3.1x cuBLASLt (2.80); small-N (A streamed) likewise ~+3%;
# set A unchanged within 1% (no flag: tiles on both sides; the producer's only change is a
# branch on the flag).
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session12f.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
direct || exit 1
bench small-m --shapes .gpu/shapes/small-m.txt --shape 127x4095x4096
bench small-n --shapes .gpu/shapes/small-n.txt
bench new-1 --shapes .gpu/shapes/small-m.txt --shape 127x4095x4096 --no-cublas
bench_old main-1 --shapes .gpu/shapes/small-m.txt --shape 127x4095x4096 --no-cublas
A="--shape 4096x4096x4096 --shape 4096x14336x4096 --shape 4096x2112x7168 --shape 8192x8192x1024"
bench seta-new $A --no-cublas
bench_old seta-main $A --no-cublas
(cd "$OUT" && tar czf tests.tgz direct.txt && rm -f direct.txt)
