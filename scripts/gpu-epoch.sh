#!/usr/bin/env bash
# GPU call for the memset-free Stream-K flags (epoch-tagged, cleared by their owners): every
# schedule forced on the groups that split tiles (the 10-run bitwise test reuses one workspace
# across launches), the model's choice on the narrow/swapped and large groups, then the small-M
# set (model and rank 1), small-N and wave sets.
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
SECONDS=0
T=.gpu/tests/gpu_matmul
DEEPGEMM_DECOMPOSITION=streamk timeout 100 $T --ignored --test-threads=1 --nocapture large repeated narrow >"$OUT/m-sk.txt" 2>&1
echo "streamk rc=$? ${SECONDS}s: $(groups "$OUT/m-sk.txt")"
DEEPGEMM_DECOMPOSITION=splitk timeout 60 $T --ignored --test-threads=1 --nocapture narrow alpha_beta repeated >"$OUT/m-split.txt" 2>&1
echo "splitk rc=$? ${SECONDS}s: $(groups "$OUT/m-split.txt")"
timeout 60 $T --ignored --test-threads=1 --nocapture narrow large epilogues >"$OUT/m-auto.txt" 2>&1
echo "auto rc=$? ${SECONDS}s: $(groups "$OUT/m-auto.txt")"
(cd "$OUT" && tar czf tests.tgz m-*.txt && rm -f m-*.txt)
B=.gpu/deepgemm-bench
$B --shapes .gpu/shapes/small-m.txt --json "$OUT/small-m.json" >"$OUT/bench.txt" 2>&1
echo "== small-m rank 1" >>"$OUT/bench.txt"
$B --shapes .gpu/shapes/small-m.txt --algo-index 1 --check none --json "$OUT/small-m-r1.json" >>"$OUT/bench.txt" 2>&1
echo "small-m ${SECONDS}s"
$B --shapes .gpu/shapes/small-n.txt --json "$OUT/small-n.json" >>"$OUT/bench.txt" 2>&1
echo "small-n ${SECONDS}s"
$B --shapes .gpu/shapes/waves.txt --json "$OUT/waves.json" >>"$OUT/bench.txt" 2>&1
echo "waves ${SECONDS}s"
grep -E "^[0-9]+x[0-9]+x[0-9]+ " "$OUT/bench.txt" | awk '{print $1, $5, $7, $9}' | head -100
