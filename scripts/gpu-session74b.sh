#!/usr/bin/env bash
# Session 74, second call (~9.5 min): multicast clusters without the whole-cluster sync at the
# start. `73a`'s phase clocks (H100, 1000x3000x4000): the c2x1_re CTAs reach their role code
# ~2,985 cycles after entry against the unclustered twin's ~240, and wait for their first stage
# until ~8,700 (unclustered 5,600), with mainloops of equal length (51.5k / 51.3k cycles). Now
# every thread arrives on the cluster barrier after the barrier inits and waits only where it
# needs a peer (the producer before its first multicast, the consumers before their first
# stage), as split-K clusters already did.
# Predicted: the c2x1 CTAs' first stage ~1,000-2,500 cycles sooner (0.5-1.4 us); a one-wave
# clustered launch that much faster (c2x1_re at 1000x3000x4000 42.2 -> ~41 us in the sweep,
# still behind c1x1_re's 39.9 unless the first stage comes as soon as its), small-M plans in
# clusters (1 x 2, 2 x 2, 2 x 1, 10-40 us launches) 2-8% faster, set A's persistent launches
# unchanged within noise. If the first stage does not move, the peer CTA starts late and the
# sync was not the cost.
#     here:  bash scripts/gpu-pack.sh (73a's CUBINS) after saving the previous pack's bench and
#            cubins.txz (the commit before the kernel change) as .gpu/old/
#     there: timeout 590 bash scripts/gpu-session74b.sh (DEADLINE=S for a shorter call)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEADLINE=${DEADLINE:-575}
have() { [ $((SECONDS + $1)) -lt "$DEADLINE" ]; }
nvidia-smi -L
S=.gpu/shapes
DEEPGEMM_VARIANT=m128n192k64_s5_c2x1_re trace c2x1re-new --layout TN --shape 1000x3000x4000
DEEPGEMM_VARIANT=m128n192k64_s5_c2x1_re B=$OLD_B DEEPGEMM_CACHE_DIR=$OLD_CACHE trace c2x1re-old --layout TN --shape 1000x3000x4000
# The first stage lands ~5,400 cycles after its loads are issued, clustered or not (`73a`):
# with L2 warm (no flush between launches), is that DRAM's latency or the fabric's?
DEEPGEMM_VARIANT=m128n192k64_s5_c1x1_re trace re-warm --layout TN --shape 1000x3000x4000 --no-flush
DEEPGEMM_VARIANT=m128n192k64_s5_c2x1_re trace c2x1re-new-warm --layout TN --shape 1000x3000x4000 --no-flush
have 120 && pair small-m 2 --check sample --shapes $S/small-m.txt
have 80 && pair uw 2 --check sample --shapes $S/underwave-sk-72.txt
if have 60; then
    DEEPGEMM_VARIANT=m128n192k64 sweep n192 60 --interleave --layout TN --shape 1000x3000x4000 --shape 1536x2048x4096
    grep -E "^\[|sweep #|interleaved" "$OUT/sweep-n192.txt" | sed -e 's/(vs the timed.*//' -e 's/deepgemm first call.*heuristic[^,]*, //' | cut -c1-130
fi
# Correctness of every clustered form: the direct cases (multicast 2 x 1, 1 x 2, 2 x 2, 1 x 4,
# the column split's and ring epilogues in clusters, split-K clusters), then the planner's
# clusters forced through gpu_matmul.
if have 60; then
    left=$((DEADLINE - SECONDS - 90))
    DEEPGEMM_SM90_VARIANTS=_c2x1,_c1x2,_c2x2,_c1x4 direct direct-clusters $((left < 220 ? left : 220))
fi
have 40 && DEEPGEMM_CLUSTER=2 matmul_groups c2 $((SECONDS + 40)) epilogues alpha_beta_in_place
have 40 && DEEPGEMM_CLUSTER=1x2 matmul_groups c12 $((SECONDS + 40)) epilogues alpha_beta_in_place
have 30 && DEEPGEMM_CLUSTER=4 matmul_groups c22 $((SECONDS + 30)) epilogues alpha_beta_in_place
have 60 && pair set-a 1 --check none --shapes $S/set-a.txt
finish
