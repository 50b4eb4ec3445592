#!/usr/bin/env bash
# Session 40, call f (~6 min; main's bench and every kernel carried: .gpu/deepgemm-bench and
# .gpu/cubins.txz from `CUBINS=all bash scripts/gpu-pack-old.sh main` moved up, or a full
# `CUBINS=all bash scripts/gpu-pack.sh`). The 64-row ping-pong tiles against main's candidates
# on the general shapes, in one run: session 38 (`38a`) found them 3-14% faster on ~10% of
# random-21d's shapes (small ones: more CTAs from 64-row tiles), never planned. These sweeps
# are what a charge for them is fitted to (scripts/sweeps/40f-*).
#     there: bash scripts/gpu-session40f.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
for layout in TN NT; do
    l=$(tr 'A-Z' 'a-z' <<<"$layout")
    sweep random-21d-$l 110 --layout $layout --shapes .gpu/shapes/random-21d.txt --seed 40
    DEEPGEMM_PINGPONG=1 sweep random-21d-$l-pingpong 80 --layout $layout --shapes .gpu/shapes/random-21d.txt --seed 40
done
sweep under-wave-tn 40 --layout TN --shapes .gpu/shapes/under-wave.txt --seed 40
DEEPGEMM_PINGPONG=1 sweep under-wave-tn-pingpong 30 --layout TN --shapes .gpu/shapes/under-wave.txt --seed 40
sweep small-mn-long-k-tn 40 --layout TN --shapes .gpu/shapes/small-mn-long-k.txt --seed 40
DEEPGEMM_PINGPONG=1 sweep small-mn-long-k-tn-pingpong 30 --layout TN --shapes .gpu/shapes/small-mn-long-k.txt --seed 40
for f in "$OUT"/sweep-*.txt; do echo "$(basename "$f"): $(grep -c '^\[' "$f") shapes, $(grep -c 'sweep #' "$f") timings"; done
