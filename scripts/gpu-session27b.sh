#!/usr/bin/env bash
# Prepared in session 26, not yet run (~470 s): the timing of wip/edge-tiles-64.patch against
# fbfd1ba (.gpu/old; the same plans: a kernel change only), after `27a` passed.
#   1. 128x128 data-parallel on ragged-27b (m = 2944, k = 6528, n = 520-640: 0-120 rows of the
#      last B box out of bounds before, 0-56 with the patch), both builds alternating twice, and
#      DG_TRACE at n = 520 and 544 (the last column's late CTAs should be gone): the zero fill's
#      cost against the rows left out, measured at 0 / 32 / 64 / 96 only so far.
#   2. Both builds alternating twice, no cuBLASLt, no check: worst-25b, random-21d, set-a,
#      waves, ragged-26c (TN); random-k8 in NN and TT.
#   3. The patched build on 2944x544 (k = 6528, 6480) forced onto 128x112, 128x128 and 128x144
#      data-parallel: cuBLASLt runs 128x112 there (32.4 us); the model puts 128x112 at 61 us
#      against 128x128's 40, an efficiency fitted on sweeps that paid the zero fill.
#   Predicted (from `26c`: the loads moved wholly inside, random-21d 0.981, random-k8 TN 0.984,
#   worst-25b 0.898; 2944x{544,576,608,640}x6528 on 128x128 took 51.3 / 44.8 / 40.2 / 39.5 us):
#   2944x544x6528 on 128x128 ~40.5 us (32 rows left out), 2944x576 ~39.5, 2944x520 (56 left
#   out) ~42; worst-25b ~0.91, random-21d ~0.985, set-a and waves 0.99-1.00, random-k8 NN / TT
#   ~0.99; no shape over 1.03 (every tile keeps its epilogue path). 128x112 on 2944x544 ~35 us
#   (115 tiles of 7/8 the work of 128x128's, 16 rows left out).
# The build: as `27a`'s. Read back with scripts/compare-runs.py (DIR 'new-*' 'old-*' and the set
# files; 'ragged-new-*' 'ragged-old-*'; 'NN_new-*' 'NN_old-*'; 'TT_new-*' 'TT_old-*').
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
"$B" --precompile _bf16_bf16_ >/dev/null &
precompile_old _bf16_bf16_ &
wait; echo "precompiled ${SECONDS}s"
(
    export DEEPGEMM_VARIANT=m128n128k64_s6_c1x1 DEEPGEMM_DECOMPOSITION=dp
    for s in 2944x520x6528 2944x544x6528; do trace "$s" --shape "$s"; done
    for r in 1 2; do
        bench "ragged-new-$r" --no-cublas --check none --shapes $S/ragged-27b.txt
        bench_old "ragged-old-$r" --no-cublas --check none --shapes $S/ragged-27b.txt
    done
)
alternate 2 --no-cublas --check none --shapes $S/worst-25b.txt --shapes $S/random-21d.txt --shapes $S/set-a.txt \
    --shapes $S/waves.txt --shapes $S/ragged-26c.txt
for v in m128n112k64_s6_c1x1 m128n128k64_s6_c1x1 m128n144k64_s5_c1x1; do
    DEEPGEMM_VARIANT=$v DEEPGEMM_DECOMPOSITION=dp bench "forced-$v" --no-cublas --check none \
        --shape 2944x544x6528 --shape 2944x544x6480
done
for l in NN TT; do
    for r in 1 2; do
        bench "${l}_new-$r" --layout $l --no-cublas --check none --shapes $S/random-k8.txt
        bench_old "${l}_old-$r" --layout $l --no-cublas --check none --shapes $S/random-k8.txt
    done
done
finish
