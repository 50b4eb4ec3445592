#!/usr/bin/env bash
# Last GPU script of session 12, on main after both merges: L2 streaming flags (12f) and split-K
# pairs with one landing slot (12c). Every kernel is SASS-identical to one measured and tested
# this session (non-split variants to 4f71d11's, ks2 to 9a9295e's), so no correctness run here:
# the tables against cuBLASLt at this commit.
# Predicted (against 12f, deepgemm with cuBLASLt in the loop): small-M geomean 1.061 -> ~1.07
# (the five ks2 shapes 3-5% faster), small-N 1.032 -> ~1.04, 127x4095x4096 2.98x -> ~3.05x;
# set A as session 11 (0.99, plans and kernels unchanged there but for the producer's flag
# test); cliffs as session 9 (4095^3 and 4100^3 at 74% / 68% of 4096^3).
#     here:  bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session12g.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
bench small-m --shapes .gpu/shapes/small-m.txt --shape 127x4095x4096
bench small-n --shapes .gpu/shapes/small-n.txt
bench set-a --shapes .gpu/shapes/set-a.txt
bench cliffs --shapes .gpu/shapes/cliffs.txt --workspace-mib 160
echo "total ${SECONDS}s"
