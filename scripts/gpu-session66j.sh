#!/usr/bin/env bash
# Session 66 (~3 min): gpu_matmul's groups with tiny-m problems at the default plans of
# `solo_for_tiny_m` (m <= 64, k <= 64 on the 64-deep solo 64x64): shapes_types_transposes,
# narrow_and_swapped, epilogues, alpha_beta_in_place, strided_batch, k_zero.
#     here:  bash scripts/gpu-pack.sh      there: timeout 400 bash scripts/gpu-session66j.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
matmul_groups m 380 shapes_types_transposes narrow_and_swapped epilogues alpha_beta_in_place \
    strided_batch k_zero
finish
