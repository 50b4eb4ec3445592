#!/usr/bin/env bash
# Session 68 (~4 min): the tall 192-row tiles among the model's candidates (DEEPGEMM_TALL=1)
# out of sample: 1,600 fresh TN shapes (m, n log-uniform in 64-8192 with m n <= 24M, k in
# 256-16384, multiples of 8), the 87 whose first plan it moves (scripts/shapes/
# tall-68-pop-moved.txt: 67 onto plain tall tiles, many of them over several waves, 20 onto
# their ring twins), on against off in one build, alternating twice, deepgemm alone.
# Predicted: 0.97-1.0 of the time (68b's under-a-wave set: its 6 moves 0.964; the multi-wave
# plain tall tiles never timed against the defaults). Then 68b's 6 moves again.
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests      there: timeout 590 bash scripts/gpu-session68c.sh
# Score: python3 scripts/compare-runs.py DIR 'pop_on-*' 'pop_off-*'
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
"$B" --precompile "$(cat .gpu/shapes/tall-68-pop-kernels.txt)" >/dev/null; echo "precompile ${SECONDS}s"
for r in 1 2; do
    [ $((560 - SECONDS)) -gt 60 ] || break
    bench pop_off-$r --layout TN --shapes .gpu/shapes/tall-68-pop-moved.txt --check none --iters 30 --no-cublas >/dev/null
    DEEPGEMM_TALL=1 bench pop_on-$r --layout TN --shapes .gpu/shapes/tall-68-pop-moved.txt --check none --iters 30 --no-cublas >/dev/null
    bench wave_off-$r --layout TN --shapes .gpu/shapes/tall-68-moved.txt --check none --iters 30 --no-cublas >/dev/null
    DEEPGEMM_TALL=1 bench wave_on-$r --layout TN --shapes .gpu/shapes/tall-68-moved.txt --check none --iters 30 --no-cublas >/dev/null
    echo "round $r ${SECONDS}s"
done
python3 scripts/compare-runs.py "$OUT" "pop_on-*" "pop_off-*" 2>/dev/null | tail -4
python3 scripts/compare-runs.py "$OUT" "wave_on-*" "wave_off-*" 2>/dev/null | tail -2
finish
