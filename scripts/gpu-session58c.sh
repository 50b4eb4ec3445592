#!/usr/bin/env bash
# Session 58, fourth call (~2 min): MN_B_128_FACTOR (the 128 x 128 tile with an N-major B,
# unclustered or in clusters of 2 x 1, charged 1.2x its mainloop) against the commit before it
# (.gpu/old: the build with the small-phase hybrid dropped), first plans only, alternating
# twice, on the 80 shape-layouts it moves over 14 kept sets (scripts/shapes/moved-58c-*.txt;
# plan-diff output moved-58c-plan-diff.txt). Score:
#     python3 scripts/compare-runs.py DIR 'nt-new-*' 'nt-old-*'  (tt, nn likewise)
# Predicted: NT and TT 0.90-0.95 of the time before; TT's moves onto the swapped NN kernel less
# certain (NN 128 x 208 in 2 x 1 ran 1.07x its estimate). Measured (scripts/sweeps/58c, H100):
# NT 0.877 (39), TT 0.921 (40), all 0.900; worst NT 616x3328x6160 1.14, TT 800x456x4776 1.08,
# TT 3320x2952x13488 1.07 (a transposed plain plan ahead of a direct cluster hybrid). The third
# call (scripts/sweeps/58c-v1) had charged the 2 x 1 tile alone: 0.914 / 0.907, its moves onto
# the unclustered 128 x 128 tile 0.95-1.18.
#     here:  bash scripts/gpu-pack.sh; strip a copy of the earlier build into .gpu/old/
#     there: timeout 590 bash scripts/gpu-session58c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OLD_CACHE=$DEEPGEMM_CACHE_DIR # the same kernels: one cache
for l in nt tt nn; do
    pair $l 2 --iters 20 --warmup 3 --check none --layout ${l^^} --shapes .gpu/shapes/moved-58c-$l.txt
done
finish
