#!/usr/bin/env bash
# Session 71, fourth call (~5 min): the column-split tiles on by default. (1) The one issue-set
# shape whose plan the default moves, 2432x1792x8192 TN (the wave set's 133 tiles of 128 x 256:
# 128 x 256 Stream-K over all SMs -> 130 tiles of 192 x 192 by columns, one wave; the model
# 108.4 -> 104.3 us), and the rest of the wave set as controls (unmoved), against
# DEEPGEMM_COLSPLIT=0, alternating three times. (2) gpu_matmul's groups at the new default
# (the test binary built with it), as long as the time lasts.
#     here:  cp the bench and tests/gpu_matmul of this build into .gpu (the kernels are 70a's)
#     there: timeout 560 bash scripts/gpu-session71d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
printf '2432x1792x8192\n1664x1664x8192\n2176x2176x8192\n3200x3200x8192\n6784x1280x8192\n' >/tmp/w71.txt
"$B" --precompile "_cs,m128n256k64_s4_c1x1,m128n168k64_s5_c1x1,m128n152k64_s5_c1x1,m128n216k64_s4_c1x1,m128n224k64_s4_c1x1" >/dev/null; echo "precompile ${SECONDS}s"
for ((r = 1; r <= ${ROUNDS:-3}; r++)); do
    bench W_new-$r --layout TN --shapes /tmp/w71.txt --check none --iters 30
    DEEPGEMM_COLSPLIT=0 bench W_old-$r --layout TN --shapes /tmp/w71.txt --check none --iters 30
done
python3 scripts/compare-runs.py "$OUT" "W_new-*" "W_old-*" 2>/dev/null | tail -4
matmul_groups def $((${UNTIL:-540} - 10)) shapes_types_transposes tiles_past_the_edges alpha_beta_in_place epilogues narrow_and_swapped orders_and_padding large_shapes
finish
