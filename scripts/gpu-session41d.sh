#!/usr/bin/env bash
# Session 41, call d (~2 min): the solo tiles again, their kernels asking for the whole L1 as
# shared memory (CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 100). `41c` timed solo
# 2-2.5x behind the plan wherever its 64-row tiles outnumber 132 (1368 tiles of 3624x2984x15248
# NT 1163 us against 464), as if one CTA an SM were resident, not two: the driver's own
# carveout choice the suspect. Predicted: those shapes 1.6-2x faster than in `41c`, the shapes
# under 132 tiles unchanged.
#     here: cargo build --release --lib --bin deepgemm-bench; the bench and libdeepgemm.so
#           (stripped) into .gpu (its cubins stand: no kernel source changed since `41c`)
#     there: bash scripts/gpu-session41d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_SOLO=1 sweep random-21d-tn-solo 100 --layout TN --shapes .gpu/shapes/random-21d.txt
bench random-21d-tn --layout TN --shapes .gpu/shapes/random-21d.txt --iters 20 --warmup 3 --check none
DEEPGEMM_SOLO=1 sweep random-21d-nt-solo 100 --layout NT --shapes .gpu/shapes/random-21d.txt
finish
