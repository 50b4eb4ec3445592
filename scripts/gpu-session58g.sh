#!/usr/bin/env bash
# Session 58, seventh call (~1.5 min): MN_B_128_FACTOR only over more tiles than SMs (the gate
# fitted on 58c / 58f's measured moves) against f3590bf's ungated charge (.gpu/old), out of
# sample: the 80 shape-layouts of 240 fresh shapes of at most ~a wave of 128 x 128 tiles
# (scripts/shapes/fresh-58g.txt, seed 5801) whose first plan the gate moves (TT / NT; list in
# moved-58g-*). First plans, alternating twice. Score:
#     python3 scripts/compare-runs.py DIR 'nt-new-*' 'nt-old-*'  (tt likewise)
# Predicted: the gated plans 0.97-1.0 of the ungated ones' time (in sample the ungated moves
# there were 0.91 by geomean with a 1.23 tail: the gate trades the mean for the tail).
# Measured (scripts/sweeps/58g, H100): 1.006 of the ungated plans' time (NT 1.005, TT 1.007;
# 21 of 80 over 1.05, 21 under 0.95, worst 1.32, best 0.84): the gate fitted noise, not
# merged. The gated build was f3590bf with the factor moved out of `iteration_s` into
# `estimate_s` (both phases) under `v.num_tiles(p) > dev.sm_count`.
#     there: timeout 240 bash scripts/gpu-session58g.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OLD_CACHE=$DEEPGEMM_CACHE_DIR
for l in nt tt; do
    pair $l 2 --iters 20 --warmup 3 --check none --layout ${l^^} --shapes .gpu/shapes/moved-58g-$l.txt
done
finish
