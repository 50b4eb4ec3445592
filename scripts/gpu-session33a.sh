#!/usr/bin/env bash
# Session 33, call a (~8 min, every kernel carried): programmatic dependent launch.
#   1. Correct: the gpu_matmul grid with PDL (default on) including `back_to_back_dependent_calls`
#      (dependent calls back to back, no sync). Predicted: all pass. Then that test alone on the
#      DG_PDL_NO_WAIT build (the kernel's griddepcontrol.wait dropped): predicted to FAIL (the
#      test catches the race), and alone with DEEPGEMM_PDL=0: pass.
#   2. Chains of 20 back-to-back launches (--chain 20, no flush between), PDL on and off in
#      turn, twice, each against cuBLASLt: predicted 1-2 us a launch less with PDL on small
#      launches (the prologue and the launch gap under the previous kernel), ~1 us on decode,
#      unchanged within 0.5% at 4096^3.
#   3. The usual timing (L2 flush before each launch) on session 32's launch-cost set, PDL on
#      and off: predicted unchanged within 1% (a memset precedes every launch).
#     here:  CUBINS=all bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session33a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
precompile_all
grid grid 150
DEEPGEMM_PDL=0 timeout 60 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture back_to_back >"$OUT/b2b-pdl0.txt" 2>&1
echo "== b2b DEEPGEMM_PDL=0 ${SECONDS}s: $(groups "$OUT/b2b-pdl0.txt")"
DEEPGEMM_NVRTC_DEFINES=DG_PDL_NO_WAIT timeout 90 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture back_to_back >"$OUT/b2b-nowait.txt" 2>&1
echo "== b2b DG_PDL_NO_WAIT (expected to fail) ${SECONDS}s: $(groups "$OUT/b2b-nowait.txt")"
grep -E "largest error" "$OUT/b2b-nowait.txt" | head -8
finish
for r in 1 2; do
    bench chain-on-$r --chain 20 --iters 20 --warmup 2 --check none --shapes $S/pdl-33.txt
    DEEPGEMM_PDL=0 bench chain-off-$r --chain 20 --iters 20 --warmup 2 --check none --shapes $S/pdl-33.txt
done
finish
bench flush-on --check none --shapes $S/launch-cost-32c.txt
DEEPGEMM_PDL=0 bench flush-off --check none --shapes $S/launch-cost-32c.txt
finish
# 4. Set A with PDL (the default) against cuBLASLt, last (what time is left): predicted the ratios
#    of session 27 within noise (0.996 geomean; the kernel gained two instructions).
bench seta --check none --shapes $S/set-a.txt
finish
