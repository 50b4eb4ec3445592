#!/usr/bin/env bash
# Session 43, call d (~6 min): solo tiles with the whole SM's ring (`Sm90Variant::with_full_ring`:
# 64x64 13 stages, 64x128 8, one CTA an SM) against the half ring (5 / 3 stages, two CTAs an SM)
# and the default plans. `43c` (Nsight Compute) found cuBLASLt's 64x64 tiles on the shapes
# deepgemm loses keeping 13 stages and one tile a CTA, at ~330 cycles a k-iteration against
# ~540 for deepgemm's half-ring solo tile on the same tiling (928x368x3968): bytes in flight,
# not the L2 reads, would bound a CTA. Correct first: every direct solo case (half and full
# ring), the gpu_matmul grid with the solo tiles forced; then every solo candidate (`--sweep`,
# both rings) beside the default plan in the same call.
# Predicted: the full ring 0.55-0.7 of the half ring's time on under-wave and small-mn-long-k
# (solo stays data-parallel, so small-mn-long-k still loses to the split plans), 0.9-0.97 on
# the short-k shapes solo_for_short plans (moved-41s: k <= 20 iterations).
#     here: CUBINS=_w1 bash scripts/gpu-pack.sh     there: bash scripts/gpu-session43d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_SM90_VARIANTS=_w1 direct direct-solo 150 || { finish; exit 1; }
DEEPGEMM_SOLO=1 grid grid-solo 50
for spec in under-wave:TN small-mn-long-k:TN moved-41s-tn:TN moved-41s-nt:NT; do
    set_=${spec%%:*} layout=${spec##*:}
    bench "$set_-$layout" --layout "$layout" --shapes .gpu/shapes/$set_.txt --iters 20 --warmup 3 --check none
    DEEPGEMM_SOLO=1 sweep "$set_-$layout-solo" 100 --layout "$layout" --shapes .gpu/shapes/$set_.txt
done
finish
