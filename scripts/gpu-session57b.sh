#!/usr/bin/env bash
# Session 57, second call (~6 min with a devcache): 57a's interleaved sweeps found the cluster
# hybrid (m128n256 c2x1+sk) faster than the unclustered one the model ranks first at 8192³
# (bf16 1367 against 1381 us; tf32 TN 2699-2752 against 2867-2881, beating cuBLASLt's 2846),
# while the data-parallel twins tie. Is that general? 24 random large TN shapes
# (scripts/shapes/big-57.txt, 19 with both hybrids), the 128x256 tile's every plan (c1x1,
# c2x1, c2x2; data-parallel and hybrids) interleaved with cuBLASLt, bf16 and tf32.
# Predicted: c2x1+sk / c1x1+sk 0.98-1.0 in bf16 and 0.93-0.97 in tf32 over the 19 shapes;
# data-parallel c2x1 / c1x1 1.00-1.01.
#     here:  bash scripts/gpu-pack.sh; cp a devcache (e.g. /work/keep/devcache-ff9abc4.txz) to .gpu/cubins.txz
#     there: timeout 590 bash scripts/gpu-session57b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
for t in bf16 tf32; do
    DEEPGEMM_VARIANT=m128n256k sweep big57-$t 270 --interleave --dtype $t --shapes .gpu/shapes/big-57.txt
done
grep -h -E "^\[" "$OUT"/sweep-big57-*.txt | head -60
finish
