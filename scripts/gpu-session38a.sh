#!/usr/bin/env bash
# Session 38, call a (~5 min on an H200; session 37's kernels carried as .gpu/cubins.txz: no
# kernel changed since). Question: do the ping-pong consumers (64-row tiles, each consumer's
# epilogue under the other's mainloop; planned only under DEEPGEMM_PINGPONG=1) win on the
# general shapes where a CTA runs several short-k tiles, where the cooperative tiles expose
# every tile's epilogue? Predicted: the short-k (k <= ~1000) multi-tile shapes of random-21d
# 5-15% faster on ping-pong than the default first choice, the long-k ones slower (session 6:
# 10-15% on set A). Each set swept twice in one run: the default candidates, then the
# ping-pong ones alone. Then phase traces (DG_TRACE) of short-k multi-tile shapes: the first
# tile's mainloop and epilogue in cycles.
#     here: bash scripts/gpu-pack.sh (+ .gpu/cubins.txz)     there: bash scripts/gpu-session38a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
sweep random-21d-tn 150 --layout TN --shapes .gpu/shapes/random-21d.txt
DEEPGEMM_PINGPONG=1 sweep random-21d-tn-pingpong 150 --layout TN --shapes .gpu/shapes/random-21d.txt
sweep random-21d-nt 150 --layout NT --shapes .gpu/shapes/random-21d.txt
DEEPGEMM_PINGPONG=1 sweep random-21d-nt-pingpong 150 --layout NT --shapes .gpu/shapes/random-21d.txt
for s in 1656x2576x952 2024x2568x640 1568x2416x800 3696x1832x520 2680x1544x768 1720x2424x720 4096x4096x4096; do
    trace "$s" --shape "$s"
done
for s in 1656x2576x952 2024x2568x640 1568x2416x800; do
    DEEPGEMM_PINGPONG=1 trace "pp $s" --shape "$s"
done
finish
