#!/usr/bin/env bash
# Session 58, sixth call (~2 min): the 64 shape-layouts of the kept sets that MN_B_128_FACTOR
# moves and `58c` did not time (decode-42's and decode-27d's packed TT / NT, kalign,
# launch-cost, ragged-27b, large-tt-49, small-m / small-n NT and TT, ...; plan-diff over every
# kept set: scripts/shapes/moved-58f-plan-diff.txt), first plans against the build before
# (.gpu/old), alternating twice. Score:
#     python3 scripts/compare-runs.py DIR 'nt-new-*' 'nt-old-*'  (tt likewise)
# Predicted: 0.93-0.98 by layout on the large ones; the decode moves (M <= 16, where a 128-row
# tile is mostly empty and the factor was never measured) anywhere in 0.9-1.1.
# Measured (scripts/sweeps/58f, H100): NT 0.957 (25), TT 0.965 (39); decode 0.75-1.06
# (decode-27d NT 0.75-0.78 onto a split, decode-42 TT onto 128x64 0.90-1.06); the losers are
# under a wave of 128 x 128 tiles (NT 1024x2048x8200 1.23, TT 2944x552x6528 1.18).
#     here:  bash scripts/gpu-pack.sh; a stripped bench of the build before in .gpu/old/
#     there: timeout 300 bash scripts/gpu-session58f.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OLD_CACHE=$DEEPGEMM_CACHE_DIR
for l in nt tt; do
    pair $l 2 --iters 20 --warmup 3 --check none --layout ${l^^} --shapes .gpu/shapes/moved-58f-$l.txt
done
finish
