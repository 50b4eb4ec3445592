#!/usr/bin/env bash
# Prepared in session 25, not yet run (~150 s): wip/streamk-charges-25.patch, the Stream-K charges
# lowered towards `25e`'s measurements (a CTA's stages charged 0.45 from HBM where its Stream-K
# tiles' panels exceed the L2, instead of all of them; the partials' write and read 12 -> 9 us a
# 128x256 tile). It moves 22 shape-layouts over every set in four layouts (scripts/plan-diff.sh;
# scripts/moved-coverage.py: 1 of them timed in a kept sweep), both builds alternating twice.
#   Predicted: 2176^2 onto 128x248 sk153x132 ~0.93 (`25h`: 112.5 us against 121), 4888x832x4528
#   TN onto 128x208 sk156x132 ~0.90 (`25b`), 4096x7168x16384 onto 128x248 sk136 ~1.03 (session 16:
#   1228.8 against 1195.8); the rest unknown: ~0.97-1.00 over all.
#     here:  git apply wip/streamk-charges-25.patch && bash scripts/gpu-pack.sh &&
#            git checkout src && bash scripts/gpu-pack-old.sh HEAD
#     there: bash scripts/gpu-session26b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OLD_CACHE=$DEEPGEMM_CACHE_DIR # the same kernels
"$B" --precompile _bf16_bf16_ >/dev/null; echo "precompile ${SECONDS}s"
alternate_moved 2 moved-26b --no-cublas --check none
finish
