#!/usr/bin/env bash
# Session 63, last call (not run: no device time left; ~9 min): 1. the gpu_matmul groups 63d left (main's
# default plans since session 62: tf32 TN short-k onto the solo 64 x 64); 2. every heuristic
# candidate of the general set's k = 8 mod 16 shapes timed, interleaved, TN and NN (63d: TN
# 0.873x cuBLASLt there against 0.966 at k = 0 mod 16; 5888x280x5640 ran 70.8 us on the model's
# 47.0): is a faster candidate in the list (the model's mid-sector charge), or is it the kernel?
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 560 bash scripts/gpu-session63e.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
precompile_all
matmul_groups m 240 orders_and_padding tiles_past_the_edges narrow_and_swapped \
    transposed_orientation odd_d_in_place swapped_bias_through_the_tma_store \
    sm_count_target_matches_the_reference k_zero beta_zero_ignores_c \
    repeated_runs_are_bitwise_identical
S=.gpu/shapes/general-63-k8.txt
C=.gpu/shapes/general-63-k0ctl.txt
bench def-1 --layout TN --shapes $S --shapes $C --check none --iters 30
DEEPGEMM_DECOMPOSITION=streamk bench sk-1 --layout TN --shapes $S --shapes $C --check none --iters 30
DEEPGEMM_CLUSTER=2 bench c2-1 --layout TN --shapes $S --shapes $C --check none --iters 30
bench def-2 --layout TN --shapes $S --shapes $C --check none --iters 30
DEEPGEMM_DECOMPOSITION=streamk bench sk-2 --layout TN --shapes $S --shapes $C --check none --iters 30
DEEPGEMM_CLUSTER=2 bench c2-2 --layout TN --shapes $S --shapes $C --check none --iters 30
finish
