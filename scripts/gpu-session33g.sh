#!/usr/bin/env bash
# Session 33, call g (~3 min, every kernel carried): the pack-or-portable model charges the
# portable kernel's walk through k (~1.2 us a 32-deep k-step, whatever the size) and a 5 us floor
# for the Hopper kernel, so small and skinny problems at odd leading dimensions pack and run the
# Hopper kernel instead of the portable one (512³ ran portable at 0.52x cuBLASLt in 33e).
#   1. gpu_pack (its planner expectations and every packed case): predicted 876 / 0.
#   2. scripts/shapes/portable-floor-33.txt with A and B at odd leading dimensions, the model's
#      plans and the portable kernel forced (DEEPGEMM_KERNELS=portable: what ran before for all
#      but 128³ and 256³), checked against the float64 reference / cuBLASLt. Predicted: the moved
#      shapes 1.5-3x faster (512³ 27.6 -> ~15 us, 16x4096x4096 ~150 -> ~50), every check passing.
#     here:  CUBINS=all bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session33g.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
timeout 120 .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture >"$OUT/pack.txt" 2>&1
echo "== gpu_pack rc=$? ${SECONDS}s: $(groups "$OUT/pack.txt")"
finish
bench floor-model --pad 1,1,0,0 --shapes .gpu/shapes/portable-floor-33.txt
DEEPGEMM_KERNELS=portable bench floor-portable --pad 1,1,0,0 --shapes .gpu/shapes/portable-floor-33.txt
finish
