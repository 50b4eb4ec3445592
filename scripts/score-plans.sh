#!/usr/bin/env bash
# Scores the planner of a deepgemm-bench build against session 37's sweeps (no GPU), with every
# rule of `plan::candidates` applied (swap margins included; scripts/plan-regret.py):
#     bash scripts/score-plans.sh path/to/deepgemm-bench [-v]
# One line a set: chosen / fastest timed of the swept build (37b: 9fe3663's planner; 37d:
# bef673c's, with the 2 x 2 start) -> this build's first plans. -v lists the shapes whose first
# plan moved.
set -euo pipefail
B=$1; V=${2:-}; cd "$(dirname "$0")/.."; T=$(mktemp -d)
score() { # SWEEP LAYOUT SHAPES
    "$B" --plans --layout "$2" --shapes "scripts/shapes/$3.txt" >"$T/plans.txt"
    echo "$1 $(python3 scripts/plan-regret.py "$T/plans.txt" "scripts/sweeps/$1.txt" | tail -1)"
    [ -z "$V" ] || python3 scripts/plan-regret.py "$T/plans.txt" "scripts/sweeps/$1.txt" -v | head -n -1
}
score 37b-random-21d-tn TN random-21d
score 37b-moved-35-tt TT moved-35-biascol-tt
score 37b-random-k8-nn NN random-k8
score 37b-random-k8-tt TT random-k8
score 37b-random-k8-nt NT random-k8
score 37d-random-21d-nn NN random-21d
score 37d-random-21d-nt NT random-21d
score 37d-under-wave-tn TN under-wave
score 37d-small-mn-long-k-tn TN small-mn-long-k
rm -rf "$T"
