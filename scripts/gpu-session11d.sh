#!/usr/bin/env bash
# Fourth GPU script of session 11, on branch next/split-cluster, after 11c: split-K clusters
# measured correct but 1-4 us slower than main's global-memory split-K (small-M set without
# cuBLASLt: 1x4096x4096 20.9 against 19.2 us, 128x4096x4096 22.4 against 21.3). DG_TRACE
# showed why: the cluster_sync after the barrier initialisation passed only at ~10,000 cycles
# (first loads issued at ~2,700), so the consumers met their first full stage ~7,000 cycles
# late. Now every thread arrives at once and waits only before its first access to the peer.
# Also: the heuristic no longer panics (INTERNAL_ERROR) when a forced decomposition leaves no
# Hopper plan (460 gpu_matmul cases under DEEPGEMM_DECOMPOSITION=splitk-cluster in 11c).
# Predicted: consumer 0's first stage full at ~4,000 cycles instead of ~11,000; the split plans
# 3-4 us faster than in 11c (64x4096x4096 22.0 -> ~18.5 us, 16x4096x4096 21.1 -> ~17.5),
# i.e. ~1.5-2.5 us faster than main; 1x2112x7168 (34 CTAs instead of 68) still slower. The
# c2x1 multicast kernel's startup sync (unchanged) traced too: if it also waits ~7,000 cycles,
# that is what clusters cost one-wave shapes (session 10: 1000x3000x4000 c2x1 40.4 us, c1x1
# 39.5).
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session11d.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
direct || exit 1
DEEPGEMM_DECOMPOSITION=splitk-cluster timeout 120 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul-ks.txt" 2>&1
echo "gpu_matmul[splitk-cluster] rc=$? ${SECONDS}s: $(groups "$OUT/matmul-ks.txt")"
trace "ks2 64x4096x4096" --shape 64x4096x4096
trace "ks2 16x4096x4096" --shape 16x4096x4096
DEEPGEMM_CLUSTER=1 trace "c1x1 1000x3000x4000" --shape 1000x3000x4000
DEEPGEMM_CLUSTER=2 trace "c2x1 1000x3000x4000" --shape 1000x3000x4000
bench new-1 --shapes .gpu/shapes/small-m.txt --shape 127x4095x4096 --no-cublas
bench_old main-1 --shapes .gpu/shapes/small-m.txt --shape 127x4095x4096 --no-cublas
bench small-m --shapes .gpu/shapes/small-m.txt --shape 127x4095x4096
bench set-a --shapes .gpu/shapes/set-a.txt
(cd "$OUT" && tar czf tests.tgz direct.txt matmul-ks.txt && rm -f direct.txt matmul-ks.txt)
