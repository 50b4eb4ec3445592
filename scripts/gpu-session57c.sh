#!/usr/bin/env bash
# Session 57, third call (~5 min with a devcache): out of sample for the cluster hybrids' charge
# (a hybrid's Stream-K phase over clusters of 2 x 1 at the data-parallel rate). The shapes of
# scripts/shapes/fresh-57.txt (200 random large ones) whose first plan it moved: 22 tf32 TN and
# 26 bf16 shape-layouts (TN 3, NN 7, TT 8, NT 8), lists scripts/shapes/moved-57-*.txt. Each
# timed with every candidate interleaved (the plan before the change is among the candidates
# of the new build: checked for all 48), cuBLASLt in the run.
# Predicted: the new first plan 0.98-0.995 of the old one's time in tf32 TN, 0.99-1.0 in bf16.
#     here:  cargo build --release; cp target/release/{deepgemm-bench,libdeepgemm.so} .gpu/;
#            cp scripts/shapes/moved-57-* .gpu/shapes/; a devcache as .gpu/cubins.txz
#     there: timeout 590 bash scripts/gpu-session57c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
sweep moved57-tf32-TN 200 --interleave --dtype tf32 --shapes .gpu/shapes/moved-57-tf32-tn.txt
for l in NN NT TT TN; do
    f=.gpu/shapes/moved-57-$(echo $l | tr A-Z a-z).txt
    sweep moved57-bf16-$l 120 --interleave --layout $l --shapes "$f"
done
finish
