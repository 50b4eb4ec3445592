#!/usr/bin/env bash
# Session 71, third call (logs `71c`) (~5 min): the column-split tiles' refitted model
# (streamk::column_split_efficiency 0.77 / 0.80 / 0.83, COLUMN_SPLIT_LAUNCH_S 2 us,
# COLUMN_SPLIT_EPILOGUE_S 0.75 us a wave, fitted to `71b`'s sweep) out of sample: the 29 TN
# shapes whose first plan DEEPGEMM_COLSPLIT=1 moves (scripts/shapes/colsplit-71-moved.txt: 27
# from fresh and kept sets, 2 in sample), checked, then the default plans against
# DEEPGEMM_COLSPLIT=1 alternating twice (cuBLASLt in each run), then every candidate swept.
# Predicted: the moves 0.95-0.97 of the time (the model's ratios), none over 1.05.
#     here:  bash scripts/gpu-pack.sh (no CUBINS; the kernels are 70a's) or copy the bench into .gpu
#     there: timeout 590 bash scripts/gpu-session71c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
"$B" --precompile "_cs,$(paste -sd, .gpu/shapes/names-71a.txt)" >/dev/null; echo "precompile ${SECONDS}s"
DEEPGEMM_COLSPLIT=1 timeout 120 "$B" --layout TN --iters 1 --warmup 0 --shapes .gpu/shapes/colsplit-71-moved.txt >"$OUT/chk-new.txt" 2>&1
echo "chk-new rc=$? PASS $(grep -cE ' PASS$' "$OUT/chk-new.txt") FAIL $(grep -cE ' FAIL$' "$OUT/chk-new.txt") ${SECONDS}s"
for r in 1 2; do
    [ $((${UNTIL:-420} - SECONDS)) -gt 60 ] || break
    DEEPGEMM_COLSPLIT=0 bench TN_old-$r --layout TN --shapes .gpu/shapes/colsplit-71-moved.txt --check none --iters 30
    DEEPGEMM_COLSPLIT=1 bench TN_new-$r --layout TN --shapes .gpu/shapes/colsplit-71-moved.txt --check none --iters 30
done
python3 scripts/compare-runs.py "$OUT" "TN_new-*" "TN_old-*" 2>/dev/null | tail -4
left=$((${UNTIL:-560} - SECONDS))
[ $left -gt 40 ] && DEEPGEMM_COLSPLIT=1 sweep cs71 $left --interleave --layout TN --shapes .gpu/shapes/colsplit-71-moved.txt
finish
