#!/usr/bin/env bash
# Session 66 (~1.5 min): `plan::solo_for_tiny_m` (m <= 64, k one 128-byte slab: the 64-deep
# solo 64x64 first) out of sample: the 187 shape-layouts it moves among 80 fresh tiny-m shapes
# (scripts/shapes/tiny-m-66.txt), every layout, this build against 5ebe56c's bench (.gpu/old;
# the same kernels, one cache), two rounds. Predicted 0.93-0.97 of the time where no copy is
# made, ~1.0 with copies; nothing past 1.10.
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests; mkdir -p .gpu/old; cp <5ebe56c bench> .gpu/old/
#     there: timeout 300 bash scripts/gpu-session66i.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OLD_CACHE=$DEEPGEMM_CACHE_DIR
nvidia-smi -L
"$B" --precompile "m64n64k64_s5_c1x1_w1,m128n64k64_s8_c1x1,m128n32k128_s5_c1x1,m128n16k128_s5_c1x1" >/dev/null; echo "precompile ${SECONDS}s"
alternate_moved 2 moved-66s
finish
