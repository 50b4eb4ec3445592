#!/usr/bin/env bash
# Scores the cost model of a deepgemm-bench build against the kept sweeps (no GPU):
#     bash scripts/score-model.sh path/to/deepgemm-bench
# One regret line a set (scripts/sweep-regret.py: chosen / fastest timed, geomean); the moved
# shapes of each set are listed in /tmp/score-model/*.log. It judges only moves the sweeps timed:
# scripts/moved-coverage.py counts those among everything a change moves (plan-diff.sh).
set -euo pipefail
B=$1; cd "$(dirname "$0")/.."; S=scripts/sweeps; T=/tmp/score-model; mkdir -p $T
score() { # NAME SHAPES LAYOUT SWEEPS...
    local name=$1 shapes=$2 layout=$3; shift 3
    "$B" --plans-all --layout "$layout" --shapes "scripts/shapes/$shapes.txt" > "$T/$name.plans"
    python3 scripts/sweep-regret.py "$T/$name.plans" "$@" > "$T/$name.log"
    echo "$name $(tail -1 "$T/$name.log")"
}
score uw under-wave TN $S/18b-under-wave-tn.txt $S/18c-under-wave-tn.txt $S/19c-under-wave-tn-n*.txt $S/19e-under-wave-tn-c2.txt $S/20b-under-wave-tn-c2x2.txt $S/21a-under-wave-tn-*.txt
score kalign kalign-19d TN $S/19e-kalign-tn-c2.txt $S/20b-kalign-tn-c2x2.txt $S/21a-kalign-19d-tn-*.txt
score rk8 random-k8 TN $S/18b-random-k8-tn.txt $S/18c-random-k8-tn.txt
score nn random-k8 NN $S/18e-random-k8-nn.txt
score tt random-k8 TT $S/18e-random-k8-tt.txt
score decode small-m TN $S/20j-decode-tn-auto.txt $S/20j-decode-tn-splitk.txt $S/20j-decode-tn-streamk.txt
score small-m small-m TN $S/21b-small-m-tn.txt
score small-n small-n TN $S/21b-small-n-tn.txt
score smallmn small-mn-long-k TN $S/22c-small-mn-long-k-tn-*.txt $S/24h-small-mn-losers-tn-*.txt
score worst-tn worst-25b TN $S/25b-worst-tn-*.txt
score losers-tn losers-22d TN $S/23a-losers-22d-tn.txt $S/24a-losers-22d-tn-*.txt $S/24h-small-mn-losers-tn-*.txt
score losers-nn losers-22d NN $S/23a-losers-22d-nn.txt
score losers-tt losers-22d TT $S/23a-losers-22d-tt.txt
score losers-nt losers-22d NT $S/23a-losers-22d-nt.txt
