#!/usr/bin/env bash
# Session 72, the short form of 72a for a call cut to ~3-4 min by the device budget: (1) 40 moves of
# DEEPGEMM_SK_SUBWAVE_FIXUP_US=5 (scripts/shapes/subwave-72-moved.txt) against the default, one
# round each way; (2) the one-wave shapes' Stream-K candidates, then their default ones, swept
# interleaved with cuBLASLt, each as far as DEADLINE allows.
#     here:  as 72a (.gpu/cubins.txz holds every kernel these plans name: no compiling there)
#     there: DEADLINE=S timeout S+15 bash scripts/gpu-session72b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEADLINE=${DEADLINE:-200}
left() { echo $((DEADLINE - SECONDS)); }
nvidia-smi -L
grep -v '^#' .gpu/shapes/subwave-72-moved.txt >/tmp/sw72.txt
DEEPGEMM_SK_SUBWAVE_FIXUP_US=5 bench SW_new-1 --layout TN --shapes /tmp/sw72.txt --check none --iters 20
bench SW_old-1 --layout TN --shapes /tmp/sw72.txt --check none --iters 20
python3 scripts/compare-runs.py "$OUT" "SW_new-*" "SW_old-*" 2>/dev/null | tail -6
S=.gpu/shapes/underwave-sk-72.txt
[ "$(left)" -gt 20 ] && DEEPGEMM_DECOMPOSITION=streamk sweep uw-streamk $(( $(left) * 6 / 10 )) --interleave --layout TN --shapes $S
[ "$(left)" -gt 15 ] && sweep uw-default $(( $(left) - 5 )) --interleave --layout TN --shapes $S
for f in "$OUT"/sweep-uw-*.txt; do echo "== $f"; grep -E "sweep #|interleaved|^\[" "$f" | sed -e 's/(vs the timed.*//' -e 's/deepgemm first call.*heuristic[^,]*, //' | cut -c1-130; done
finish
