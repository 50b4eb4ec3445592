#!/usr/bin/env bash
# Session 66 (~1-2 min): DG_TRACE phase clocks of tiny launches (66d: deepgemm's kernels run
# ~2.8k cycles longer than cuBLASLt's under Nsight Compute, 8x8x8 ~10.2k against ~7.1k, one
# CTA each): where a one-tile launch spends its cycles, entry to the TMA stores' drain.
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests      there: timeout 300 bash scripts/gpu-session66e.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
for s in 8x8x8 64x64x64 128x128x128 256x256x256 1x4096x64; do
    trace "$s" --shape $s
    trace "$s again" --shape $s
done
cat "$OUT/traces.txt"
finish
