#!/usr/bin/env bash
# Session 17, branch next/l2-requests: the L2-request bound in the cost model (q: 0.68 / 1.6 /
# 3.7 requests a line by where it starts), a 4 us charge on K-major-B clusters, and clusters of
# 2 for the fill widths 144-240 in steps of 16 (K-major B).
# Predicted: the gpu_matmul grid narrowed to the new cluster widths passes; random-k8 (TN)
# new/main geomean <= 0.88, no shape more than 3% slower (17c's q = 2.2 losses at pitch 96 mod
# 128 are back on main's plans); against cuBLASLt >= 0.84 (main 0.733). NN 1000x3000x4000
# (A's lines mid-sector) on 128x216 within 3% of 128x192's 40.5 us.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session17d.sh  (.gpu carried, ~350 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
OLD_CACHE=$DEEPGEMM_CACHE_DIR  # main's kernels are a subset: one cache
precompile_all
FILLC=n144k64_s5_c2x1,n144k64_s6_c2x1,n160k64_s5_c2x1,n176k64_s5_c2x1,n208k64_s4_c2x1,n224k64_s4_c2x1,n240k64_s4_c2x1,n144k32_s6_c2x1,n160k32_s5_c2x1,n176k32_s5_c2x1,n208k32_s4_c2x1,n224k32_s4_c2x1,n240k32_s4_c2x1
DEEPGEMM_VARIANT=$FILLC timeout 220 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul-fillc.txt" 2>&1
echo "gpu_matmul fill clusters rc=$? ${SECONDS}s: $(groups "$OUT/matmul-fillc.txt")"
grep -oE "dg_sm90_[a-z0-9_]*c2x1" "$OUT/matmul-fillc.txt" | sort | uniq -c | sort -rn | head -20
F=.gpu/shapes/random-k8.txt
alternate 2 --no-cublas --check none --shapes $F
bench new-vs-cublas --check sample --shapes $F
for l in NN NT; do
    bench changed-$l --check sample --layout $l --shape 1000x3000x4000 --shape 1384x3442x3456 --shape 2520x5767x2688 --shape 2048x2048x8200
    bench_old changed-$l-old --no-cublas --check none --layout $l --shape 1000x3000x4000 --shape 1384x3442x3456 --shape 2520x5767x2688 --shape 2048x2048x8200
done
finish
