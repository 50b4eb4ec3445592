#!/usr/bin/env bash
# Session 54, third call (~9.5 min; 53a's devcache carried): the whole gpu_matmul grid at main's
# code (owed since session 51: sessions 50-53's epilogues and plans; its `epilogues`,
# `odd_d_in_place` and `tiles_past_the_edges` groups take GELU on every layout), as
# scripts/gpu-session51a.sh grid. Predicted: all pass.
#     there: timeout 590 bash scripts/gpu-session54c.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
grid grid-54c $((575 - SECONDS))
finish
