#!/usr/bin/env bash
# Session 79's call (~8 min): (1) the direct cases owed since session 78 (scripts/gpu-session78c.sh:
# 13 column-split and 15 wide ping-pong cases; predicted: all pass, the kernels did not change);
# (2) a misfit problem's first call before and after session 79's planner changes (`fc297d5`,
# `96dee2d`, `af6b83d`: a slab plan's blocks plan no slab levels of their own, the D probe's
# plans reused, the list built ~4x faster), in the bench's 32 MiB (PyTorch's workspace):
# 4095³ / 4097³ / 4100³ TN, each in a process of its own so that each is first sight.
# Predicted from this machine's CPU (`deepgemm-bench --plan-time`, BENCHMARKS.md session 79):
# the heuristic's time 25-38 -> 5-7 ms here (51-67 ms on the GPU machine in session 78, so
# ~10-15 there), and the first call's block planning ~70-90 ms less; timings unchanged (the
# same plans: every `--plans` list of every kept shape file is identical).
#     here:  CUBINS="_pp,_cs,$(paste -sd, scripts/shapes/names-78a.txt),$(paste -sd, scripts/shapes/names-79a.txt)" bash scripts/gpu-pack.sh
#            bash scripts/gpu-pack-old.sh afd4285
#     there: DEADLINE=<seconds> timeout 590 bash scripts/gpu-session79a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEADLINE=${DEADLINE:-400}
have() { [ $((SECONDS + $1)) -lt "$DEADLINE" ]; }
nvidia-smi -L
# The kernels are the same source in both builds, so one content-keyed cache serves both.
OLD_CACHE=$DEEPGEMM_CACHE_DIR
with DEEPGEMM_SM90_VARIANTS=_cs,_pp direct cs-pp-direct 250
for s in 4095x4095x4095 4097x4097x4097 4100x4100x4100; do
    have 40 && bench_old "first-old-$s" --shape "$s" --iters 10 --check none
    have 40 && bench "first-new-$s" --shape "$s" --iters 10 --check none
done
grep -h -E "heuristic .* ms" "$OUT"/first-*.txt | cut -c1-200
# (3) Small m with a long k (scripts/shapes/splitk-wide-79.txt): every default candidate, then
# 128 x 128 and 128 x 256 forced with their split-K / Stream-K schedules, all timed (--sweep).
# The default, 128 x 64 split-K pairs (`_ks2`), re-reads A (m x k) once per tile column: for
# 127x4095x4096 ~96 MB through the L2 against 64 MB on 128 x 128 split 4 ways (sk32x128),
# which the model charges as an unfitted Stream-K fixup (39.5 us against 16.2). Session 18
# measured such a split slower on one tile row (128x4096x14336 on 128 x 128 sk32x128 46.7 us
# against the pairs' 42.8, H200), so the prediction is weak: 128 x 128 sk32x128 at 0.8-1.1 of
# `_ks2`'s time at 127x4095x4096 (23.3 us on the H100 in session 78), where the L2 traffic
# (not the fixup) would be what decides; if under 0.9, the split-K charge extends to single
# tile rows of 128-wide tiles.
S=.gpu/shapes/splitk-wide-79.txt
have 90 && sweep splitk-default 100 --shapes $S
have 90 && with DEEPGEMM_VARIANT=m128n128k64_s6_c1x1,m128n256k64_s4_c1x1 sweep splitk-wide 150 --shapes $S
finish
