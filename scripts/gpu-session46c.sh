#!/usr/bin/env bash
# Session 46, call c (~5 min): the solo tiles with 128-deep stages and the whole SM's ring
# (`Sm90Variant::with_full_ring`: 64x64 6 stages, 64x128 4, one CTA an SM; the mainloop probe's
# configuration, whose 64x64 ran a 64-k in 366 cycles against the solo kernel's ~565). Correct
# first (the direct 128-deep solo cases), then every solo 128-deep candidate swept
# (DEEPGEMM_DEEP=1 DEEPGEMM_SOLO=1: half and full rings) on the sets of session 41's solo
# sweeps (scripts/sweeps/41c-*-solo.txt, 41d-*: the same seed, across calls) and the default
# plans in the same call. Predicted: the full-ring 64x64 0.65-0.75 of the 64-deep solo's time
# where one tile a CTA runs a long k (928x368x3968: ~565 -> ~370-420 cycles a k-step), so
# ahead of the default plans on under-wave shapes of at most 132 64x64 tiles; the half ring
# (two stages) behind both.
#     here: CUBINS=k128_s6_c1x1_w1,k128_s4_c1x1_w1,k128_s2_c1x1_w1,k128_s3_c1x1_w1,$(for s in under-wave \
#               small-mn-long-k; do bash scripts/plan-kernels.sh target/release/deepgemm-bench TN \
#               scripts/shapes/$s.txt; done | paste -sd,) bash scripts/gpu-pack.sh
#     there: timeout 560 bash scripts/gpu-session46c.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_SM90_VARIANTS=k128_s6_c1x1_w1,k128_s4_c1x1_w1,k128_s2_c1x1_w1,k128_s3_c1x1_w1 direct direct-solo-deep 150 || exit 1
DEEPGEMM_DEEP=1 DEEPGEMM_SOLO=1 sweep under-wave-tn-solo-deep 60 --layout TN --shapes .gpu/shapes/under-wave.txt --seed 40
DEEPGEMM_DEEP=1 DEEPGEMM_SOLO=1 sweep small-mn-long-k-tn-solo-deep 60 --layout TN --shapes .gpu/shapes/small-mn-long-k.txt --seed 40
DEEPGEMM_DEEP=1 DEEPGEMM_SOLO=1 sweep random-21d-tn-solo-deep 120 --layout TN --shapes .gpu/shapes/random-21d.txt --seed 40
bench under-wave-main --layout TN --shapes .gpu/shapes/under-wave.txt --check none
bench small-mn-long-k-main --layout TN --shapes .gpu/shapes/small-mn-long-k.txt --check none
