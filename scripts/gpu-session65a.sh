#!/usr/bin/env bash
# Prepared in session 64 for the next session's first call (~9 min): what session 64 left owed
# that needs no second build. 1. `64d`'s sweep (every candidate of five small odd shapes the
# model leaves on the portable kernel: `64c` measured every portable launch 4-5 us over its
# estimate; if the packed plans win, refit plan::pack::PORTABLE_FIXED_S). 2. gpu_matmul's
# three groups not run at the current default plans (large shapes; swapped bias on wide
# tiles; every configuration, last: it compiles every configuration of seven universes and
# ran out of time on a cold machine in session 62) within what is left.
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 570 bash scripts/gpu-session65a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
bash "$(dirname "$0")/gpu-session64d.sh"  # its own process: its logs in $OUT too
precompile_all
matmul_groups m 560 large_shapes swapped_bias_on_wide_tiles every_configuration_matches_the_reference
finish
