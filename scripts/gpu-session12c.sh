#!/usr/bin/env bash
# Ran in session 12 (12c) at 9a9295e, results in BENCHMARKS.md (written in session 11 on branch
# next/split4): split-K clusters of
# 4 (each CTA a quarter of every tile's k-loop; CTA c finishes consumer c's rows, adding the
# three other partials from its shared memory in rank order), and the pairs' landing buffer
# halved (a CTA receives only for the consumer it finishes: one more stage). Session 11's pairs
# lost where a global split reached more SMs (1x2112x7168: 34 CTAs 20.1 us against 68 CTAs
# 18.0). The model (unfitted for 4: the pairs' constants) now plans clusters of 4 on most split
# shapes of the small-M set.
# Predicted: correct (direct cases: 7 clusters-of-4 cases, the grid forced onto split-K
# clusters); 64x4096x4096 on 128 CTAs ~17-18 us (pairs: 20.7), 1x2112x7168 ~17.5 (main 18.0),
# 128x2112x7168 ~20 (21.3); M <= 16 shapes on 64 CTAs as pairs now 128: +-0.5 us.
#     here:  git checkout next/split4 && bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session12c.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
timeout 150 .gpu/tests/nvrtc_sm90 --ignored --test-threads=1 --nocapture >"$OUT/direct.txt" 2>&1
rc=$?
echo "nvrtc_sm90 rc=$rc ${SECONDS}s: $(grep -E '^test result' "$OUT/direct.txt")"; grep -m5 -E "FAIL|panicked" "$OUT/direct.txt"
[ $rc -eq 0 ] || { tail -30 "$OUT/direct.txt"; exit 1; }
DEEPGEMM_DECOMPOSITION=splitk-cluster timeout 120 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul-ks.txt" 2>&1
echo "gpu_matmul[splitk-cluster] rc=$? ${SECONDS}s: $(groups "$OUT/matmul-ks.txt")"
trace "ks4 64x4096x4096" --shape 64x4096x4096
bench new-1 --shapes .gpu/shapes/small-m.txt --shape 127x4095x4096 --no-cublas
bench_old main-1 --shapes .gpu/shapes/small-m.txt --shape 127x4095x4096 --no-cublas
(cd "$OUT" && tar czf tests.tgz direct.txt matmul-ks.txt && rm -f direct.txt matmul-ks.txt)
