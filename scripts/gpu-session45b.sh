#!/usr/bin/env bash
# Session 45, call b (~6 min; the same pack as 45a): every 128-deep candidate timed (the
# bench's --sweep under DEEPGEMM_DEEP=1: only deep variants, unclustered, every decomposition),
# scored against the 64-deep sweeps kept in scripts/sweeps (37d, 40f: ratios to cuBLASLt, which
# every sweep times in its own run). The cost model is fitted to 64-deep stages: under
# DEEPGEMM_DEEP=1 its first choice need not be the fastest deep plan; these sweeps are what a
# refit (a per-stage cost) is scored on. Then set A deep against the default, alternating.
#     here: the 45a pack
#     there: bash scripts/gpu-session45b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_DEEP=1 sweep under-wave-tn-deep 60 --layout TN --shapes .gpu/shapes/under-wave.txt --seed 40
DEEPGEMM_DEEP=1 sweep small-mn-long-k-tn-deep 60 --layout TN --shapes .gpu/shapes/small-mn-long-k.txt --seed 40
DEEPGEMM_DEEP=1 sweep random-21d-tn-deep 120 --layout TN --shapes .gpu/shapes/random-21d.txt --seed 40
DEEPGEMM_DEEP=1 sweep random-21d-nt-deep 120 --layout NT --shapes .gpu/shapes/random-21d.txt --seed 40
for f in "$OUT"/sweep-*.txt; do echo "$(basename "$f"): $(grep -c '^\[' "$f") shapes, $(grep -c 'sweep #' "$f") timings"; done
DEEPGEMM_DEEP=1 bench set-a-deep-1 --shapes .gpu/shapes/set-a.txt --check none
bench set-a-main-1 --shapes .gpu/shapes/set-a.txt --check none
DEEPGEMM_DEEP=1 bench set-a-deep-2 --shapes .gpu/shapes/set-a.txt --check none
bench set-a-main-2 --shapes .gpu/shapes/set-a.txt --check none
finish
