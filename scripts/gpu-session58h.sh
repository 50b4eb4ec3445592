#!/usr/bin/env bash
# Prepared in session 58 (its device time ran out first): tf32 NN on the
# register-A kernel in clusters of 2 x 1 (B multicast; new: 9 variants, 168 registers, no
# spills), unmeasured before. Every heuristic candidate and cuBLASLt interleaved
# (--sweep --interleave, which also compares every candidate's D with the first's) on 10 NN
# shapes (scripts/shapes/tf32-nn-c2x1-58.txt: set A's moved ones, 4100³, 1000x3000x4000, a
# ragged 4097x1031x2049, fresh moves), the default plan checked against the float64 reference
# (--check sample); then TT (computed as NN transposed) on two.
# Predicted: correct everywhere (the multicast path is the 16-bit and tf32 TN one; the
# register-A consumer releases stages through the same lambda); the c2x1 hybrids 0.95-0.99 of
# the unclustered ones' time at 8192³ and 4096x28672x8192 (TN's gain in 57a/57c), ~1.0 on
# single-wave shapes.
#     here:  git apply wip/tf32-nn-clusters.patch; bash scripts/gpu-pack.sh (a devcache as
#            .gpu/cubins.txz; the 9 new kernels compile there in ~20 s)
#     there: timeout 300 bash scripts/gpu-session58h.sh
# Then, if correct: time the moves (scripts/shapes/moved-58h-plan-diff.txt: 149 NN and 124 TT
# tf32 shape-layouts of the kept sets; set A's NN / TT 8192³, 4096x28672x8192,
# 4096x8192x8192, 4096x7168x16384, 4096x2112x7168) against main, first plans alternating
# (`pair`, main's build in .gpu/old), and run the gpu_matmul grid's tf32 groups on them.
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
sweep tf32-nn-c2x1 200 --interleave --iters 12 --dtype tf32 --layout NN --check sample \
    --shapes .gpu/shapes/tf32-nn-c2x1-58.txt
sweep tf32-tt-c2x1 60 --interleave --iters 12 --dtype tf32 --layout TT --check sample \
    --shape 8192x8192x8192 --shape 4096x28672x8192
grep -hE "^\[|rel [0-9.e-]+\)|FAIL|mismatch" "$OUT"/sweep-*.txt | grep -vE "rel [0-9.]+e-0[5-9]|rel 0.0e0" | head -30
finish
