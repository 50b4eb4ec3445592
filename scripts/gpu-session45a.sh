#!/usr/bin/env bash
# Owed by session 44 (~7-8 min of device time): the 128-deep stages (`k128` variants,
# Sm90Variant::with_deep_stages, planned only under DEEPGEMM_DEEP=1) on the GPU for the first
# time. Correct first (the direct deep cases, then the gpu_matmul grid with them forced; the
# script stops on a failure), then timed against the default plans in the same call,
# alternating (the same build: DEEPGEMM_DEEP=1 vs unset), on the sets where the 64-deep
# narrow tiles lose most. Predicted from the mainloop probe (BENCHMARKS.md session 44): the
# narrow plans 0.65-0.8 of the time where the planner keeps their tile (under-wave,
# small-mn-long-k), 128x128 ~0.85-0.9, 128x256 ~1.0 (set A: two stages only, may lose).
#     here: CUBINS=k128,$(bash scripts/plan-kernels.sh target/release/deepgemm-bench TN \
#               scripts/shapes/under-wave.txt scripts/shapes/small-mn-long-k.txt scripts/shapes/set-a.txt) \
#           bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session45a.sh
# Run in session 45 as two calls (the grid ran into its 150 s limit, 1,559 passed / 0 failed,
# and the script stopped there): then the timing half alone, the direct and grid lines removed.
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_SM90_VARIANTS=k128 direct direct-deep 240 || { finish; exit 1; }
DEEPGEMM_DEEP=1 grid grid-deep 150 || { finish; exit 1; }
for s in under-wave small-mn-long-k; do
    for r in 1 2; do
        DEEPGEMM_DEEP=1 bench "$s-deep-$r" --shapes ".gpu/shapes/$s.txt" --check none
        bench "$s-main-$r" --shapes ".gpu/shapes/$s.txt" --check none
    done
done
# The bench's own check on every deep launch of one set.
DEEPGEMM_DEEP=1 bench under-wave-deep-check --shapes .gpu/shapes/under-wave.txt
finish
# Call b (another ~5 min; the same pack): every deep candidate against the default plan
# (the cost model is fitted to 64-deep stages: under DEEPGEMM_DEEP=1 its first choice need not
# be the fastest deep plan), and set A.
#     DEEPGEMM_DEEP=1 sweep under-wave-deep 150 --shapes .gpu/shapes/under-wave.txt
#     DEEPGEMM_DEEP=1 sweep small-mn-long-k-deep 150 --shapes .gpu/shapes/small-mn-long-k.txt
#     DEEPGEMM_DEEP=1 bench set-a-deep --shapes .gpu/shapes/set-a.txt --check none; bench set-a-main ...
