#!/usr/bin/env bash
# For the next session (written in session 12, not run): main as session 12 left it, first.
# Its kernels are SASS-identical to builds run and tested in session 12 (BENCHMARKS.md), but
# two host-side changes came after the last run against cuBLASLt: the streaming limit (320
# MiB: the 28672x8192 operands no longer streamed) and the L2 reload rate from a 16 MB A
# (64x7168x2048, 7168x64x2048, 7168x128x2048 replanned). So: the direct cases and the grid at
# this commit, then the small-M and small-N sets against cuBLASLt (127x4095x4096 on its own, so
# that each set's printed geometric mean is the set's).
# Predicted: everything passes; small-M geomean 1.031 -> ~1.04 (64x7168x2048 0.84 -> ~1.0,
# the four 28672x8192 rows 2-7% faster), small-N 1.033 -> ~1.04 (7168x64x2048 0.89 and
# 7168x128x2048 0.86 -> ~1.0); 127x4095x4096 3.0-3.2x.
#     here:  bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session13a.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
direct || exit 1
timeout 150 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
bench small-m --shapes .gpu/shapes/small-m.txt
bench small-n --shapes .gpu/shapes/small-n.txt
bench cliff-127 --shape 127x4095x4096
(cd "$OUT" && tar czf tests.tgz direct.txt matmul.txt && rm -f direct.txt matmul.txt)
