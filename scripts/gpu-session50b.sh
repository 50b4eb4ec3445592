#!/usr/bin/env bash
# Session 50 (~4 min): does the planner leave time on the table at small M / small N (decode)?
# Times every heuristic candidate (`--sweep`, up to 32 a shape, cuBLASLt in the run) of the
# small-M set (M 1/16/64/128 x set A's (N, K)), the small-N set (PyTorch's decode: the small
# side is n in cuBLAS's names) and decode-42 (session 42's fresh decode shapes), TN. The last
# such sweeps (sessions 20-21) timed kernels since replaced (128-deep narrow tiles, solo tiles,
# PDL). Predicted: the chosen plan within 3% of the fastest candidate (sweep-regret.py).
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 580 bash scripts/gpu-session50b.sh; . scripts/gpu-env.sh; finish
# Here, after: deepgemm-bench --plans-all --layout TN --shapes scripts/shapes/small-m.txt >
# /tmp/pa.txt; python3 scripts/sweep-regret.py /tmp/pa.txt scripts/sweeps/50b/sweep-small-m.txt
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile "$(paste -sd, .gpu/shapes/kernels-50b.txt)" >/dev/null
echo "precompile ${SECONDS}s"
sweep small-m 170 --layout TN --shapes .gpu/shapes/small-m.txt
sweep small-n 170 --layout TN --shapes .gpu/shapes/small-n.txt
sweep decode-42 170 --layout TN --shapes .gpu/shapes/decode-42.txt
grep -E "^ratio" "$OUT"/sweep-*.txt
