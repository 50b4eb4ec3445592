#!/usr/bin/env bash
# Session 64, the per-SM L2 request bound (plan::streamk `sm_requests`, DEEPGEMM_SM_REQUESTS=1):
# each k-iteration bound by its own CTA's L2 requests as well, not only the launch by the whole
# L2's. 63e/64a measured 5888x280x5640 TN (92 tiles of 128 x 144 on 132 SMs, lines mid-sector)
# at 71.9 us data-parallel where the model had 47.0, and Stream-K over all 132 SMs 56.5 (the
# model 63.5): the busiest CTA's requests set the pace under a wave. The bound moves 375 of the
# kept sets' shape-layouts (scripts/shapes/smreq-64-*.txt; every move is lines mid-sector). Timed
# here with the flag against without, same build, alternating, two rounds. Predicted: the
# under-a-wave and uneven-split k = 8 mod 16 moves 0.80-0.95 of the time, the small launches
# (decode, <15 us) 0.97-1.05 (their bound is latency, which the charge does not see).
# The default only if the moved set's geomean is under 0.98 with no group worse than 1.0.
# Then gpu_matmul's groups 63e left (its precompile took the time) at the default plans and,
# the decode-shaped cases among them, under the flag.
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 570 bash scripts/gpu-session64b.sh
# Score: python3 scripts/compare-runs.py DIR 'TN_on-*' 'TN_off-*' (and NN, TT, NT).
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
"$B" --precompile "$(cat .gpu/shapes/smreq-64-kernels.txt)" >/dev/null
echo "precompile moved ${SECONDS}s"
for r in 1 2; do
    for l in TN NN TT NT; do
        f=.gpu/shapes/smreq-64-$(echo $l | tr A-Z a-z).txt
        [ $((480 - SECONDS)) -gt 30 ] || break 2
        bench ${l}_off-$r --layout $l --shapes $f --check none --iters 30
        DEEPGEMM_SM_REQUESTS=1 bench ${l}_on-$r --layout $l --shapes $f --check none --iters 30
    done
done
DEEPGEMM_SM_REQUESTS=1 matmul_groups on 540 narrow_and_swapped shapes_types_transposes
matmul_groups m 560 odd_d_in_place swapped_bias_through_the_tma_store \
    sm_count_target_matches_the_reference k_zero beta_zero_ignores_c \
    repeated_runs_are_bitwise_identical
finish
