#!/usr/bin/env bash
# GPU call for clusters of 2 with B multicast (issue 3) and the re-ranked small-m plans (issue 4):
# direct variant cases first (nvrtc_sm90, cluster cases included; a hang there stops the
# cluster steps), the gpu_matmul grid with the cluster variants forced (DEEPGEMM_CLUSTER=2),
# then set A with the model's choice (rank 0, no cluster) against the cluster variant of the
# same tile (rank 1), and the small-M / small-N sets.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-cluster.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
echo "== nvrtc_sm90 (direct variant cases incl. clusters)"
timeout 150 .gpu/tests/nvrtc_sm90 --ignored --nocapture --test-threads=1 >"$OUT/sm90.txt" 2>&1
rc=$?
echo "nvrtc_sm90 rc=$rc ${SECONDS}s: $(grep -E 'test result' "$OUT/sm90.txt")"; grep -E "FAIL|mismatch|c2x1" "$OUT/sm90.txt" | head -12
if [ $rc -eq 0 ]; then
    echo "== gpu_matmul, DEEPGEMM_CLUSTER=2"
    DEEPGEMM_CLUSTER=2 timeout 180 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture \
        large shapes_types epilogues alpha_beta strided repeated orders >"$OUT/matmul-c2.txt" 2>&1
    echo "gpu_matmul[c2] rc=$? ${SECONDS}s: $(groups "$OUT/matmul-c2.txt")"
    echo "== set A: rank 0 (model) and rank 1 (cluster of 2)"
    $B --shapes .gpu/shapes/set-a.txt --json "$OUT/set-a.json" >"$OUT/bench.txt" 2>&1
    echo "== set A, heuristic rank 1" >>"$OUT/bench.txt"
    $B --shapes .gpu/shapes/set-a.txt --algo-index 1 --check none --json "$OUT/set-a-c2.json" >>"$OUT/bench.txt" 2>&1
    echo "== DEEPGEMM_CLUSTER=2: gelu_bias, fp16, tf32, NN, TT" >>"$OUT/bench.txt"
    {
        DEEPGEMM_CLUSTER=2 $B --shape 4096x14336x4096 --epilogue gelu_bias
        DEEPGEMM_CLUSTER=2 $B --dtype fp16 --shape 4096x4096x4096 --shape 8192x8192x8192
        DEEPGEMM_CLUSTER=2 $B --dtype tf32 --out fp32 --shape 4096x4096x4096 --shape 8192x8192x8192
        DEEPGEMM_CLUSTER=2 $B --layout NN --shape 4096x4096x4096
        DEEPGEMM_CLUSTER=2 $B --layout TT --shape 4096x4096x4096
    } >>"$OUT/bench.txt" 2>&1
    echo "set A ${SECONDS}s"
fi
(cd "$OUT" && tar czf tests.tgz sm90.txt matmul*.txt 2>/dev/null && rm -f sm90.txt matmul*.txt)
echo "== small M / small N (model's choice)" >>"$OUT/bench.txt"
$B --shapes .gpu/shapes/small-m.txt --json "$OUT/small-m.json" >>"$OUT/bench.txt" 2>&1
$B --shapes .gpu/shapes/small-n.txt --json "$OUT/small-n.json" >>"$OUT/bench.txt" 2>&1
echo "small sets ${SECONDS}s"
grep -E "^[0-9]+x[0-9]+x[0-9]+ |^== " "$OUT/bench.txt" | head -150
