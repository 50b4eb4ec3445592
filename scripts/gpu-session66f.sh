#!/usr/bin/env bash
# Session 66 (~6 min): (1) gpu_matmul's groups that hold small-m problems, at 63096b9's default
# plans (the half-empty gate moved such plans onto half-empty narrow tiles): narrow_and_swapped,
# shapes_types_transposes, orders_and_padding, tiles_past_the_edges, alpha_beta_in_place,
# epilogues. (2) The tiny set without the L2 flush (both libraries), and DG_TRACE marks of
# 64x64x64 without it: whether the first stage's issue (~800 cycles after the schedule, 66e) is
# the tensor maps' fetch from a flushed L2.
#     here:  bash scripts/gpu-pack.sh      there: timeout 590 bash scripts/gpu-session66f.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
T=.gpu/shapes/tiny-66.txt
bench tiny-noflush --shapes $T --iters 100 --no-flush
trace "64^3 flushed" --shape 64x64x64
trace "64^3 no flush" --shape 64x64x64 --no-flush
trace "64^3 no flush again" --shape 64x64x64 --no-flush
matmul_groups m 560 narrow_and_swapped shapes_types_transposes orders_and_padding \
    tiles_past_the_edges alpha_beta_in_place epilogues
cat "$OUT/traces.txt"
finish
