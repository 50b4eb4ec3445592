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
#            then bash scripts/gpu-pack-old.sh HEAD (main's bench into .gpu/old: HEAD is main,
#            the patch uncommitted; gpu-pack.sh empties .gpu, so this second)
#     there: PART=check timeout 590 bash scripts/gpu-session58h.sh   (~3-6 min, with .gpu/tests)
#            PART=moves timeout 500 bash scripts/gpu-session58h.sh   (~4 min: 42 NN and 27 TT of
#            the 273 moves of the kept sets, scripts/shapes/moved-58h-{nn,tt}.txt, set A's among
#            them; the full list in moved-58h-plan-diff.txt)
# Score the moves: python3 scripts/compare-runs.py DIR 'nn-new-*' 'nn-old-*' (tt likewise).
# Predicted for the moves: 0.95-0.98 of main's time on the large ones (TN's 57c: 0.959), ~1.0
# on one-wave shapes. Then run the gpu_matmul grid's tf32 groups (forced onto the clusters
# with DEEPGEMM_CLUSTER) before merging.
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
P=${PART:-check}
if [ "$P" != moves ]; then
    sweep tf32-nn-c2x1 200 --interleave --iters 12 --dtype tf32 --layout NN --check sample \
        --shapes .gpu/shapes/tf32-nn-c2x1-58.txt
    sweep tf32-tt-c2x1 60 --interleave --iters 12 --dtype tf32 --layout TT --check sample \
        --shape 8192x8192x8192 --shape 4096x28672x8192
    grep -hE "FAIL|mismatch|rel [0-9.]+e-0[1-3]" "$OUT"/sweep-*.txt | head -20
    # Every configuration of gpu_matmul's tf32 case (TT 200x300x512, computed as NN
    # transposed: the new clusters among its configurations), then the shapes / types /
    # transposes group with clusters forced wherever a tile has them (tf32 NN among them).
    if [ -x .gpu/tests/nvrtc_sm90 ]; then
        # The patch's two direct cases (NN 128x256 ragged with beta and a bias, 128x208 over
        # 460 tiles), against the float64 reference.
        DEEPGEMM_SM90_VARIANTS=f32_f32_nn_m128n256k32_s4_c2x1,f32_f32_nn_m128n208k32_s4_c2x1 \
            direct direct-tf32nn 120
    fi
    if [ -x .gpu/tests/gpu_matmul ]; then
        DEEPGEMM_CASE=4 timeout 120 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture \
            every_configuration_matches_the_reference >"$OUT/configs-tf32.txt" 2>&1
        echo "configurations rc=$? ${SECONDS}s: $(groups "$OUT/configs-tf32.txt")"
        DEEPGEMM_CLUSTER=2 timeout 180 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture \
            shapes_types_transposes >"$OUT/grid-c2.txt" 2>&1
        echo "grid c2 rc=$? ${SECONDS}s: $(groups "$OUT/grid-c2.txt")"
    fi
fi
if [ "$P" != check ]; then
    # The moves against main (.gpu/old: main's bench, scripts/gpu-pack-old.sh HEAD), first
    # plans alternating twice, each checked (sample) in its first round.
    OLD_CACHE=$DEEPGEMM_CACHE_DIR
    for l in nn tt; do
        pair $l 2 --iters 20 --warmup 3 --check sample --dtype tf32 --layout ${l^^} \
            --shapes .gpu/shapes/moved-58h-$l.txt
    done
fi
finish
