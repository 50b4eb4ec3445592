#!/usr/bin/env bash
# For branch next/fixup-fragments (written in session 7, not yet run on a GPU): Stream-K
# contributors store their accumulator fragments straight to the workspace (no staging), and
# owners add the summed partials while staging, every round's sums loaded at once on tiles up
# to 64 wide. Correctness first (the fixup runs only in Stream-K/split-K launches: the forced
# subsets, the default grid, the direct cases), then the fixup traces (as 7d) and the small-M/N
# sets against cuBLASLt. Predicted: the owner's fixup 3.0-5.4 us -> ~2-3.5 us; small-M/N
# geomeans +1-2% (split plans on 64-wide tiles gain most).
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-next-fixup.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
SECONDS=0
B=.gpu/deepgemm-bench
$B --precompile all >/dev/null
echo "precompile all ${SECONDS}s"
for d in streamk splitk; do
    DEEPGEMM_DECOMPOSITION=$d timeout 80 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture \
        large_shapes repeated narrow alpha_beta strided epilogues >"$OUT/matmul-$d.txt" 2>&1
    echo "gpu_matmul[$d] rc=$? ${SECONDS}s: $(groups "$OUT/matmul-$d.txt")"
done
timeout 120 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
ONLY_TRACES=1 bash "$(dirname "$0")/gpu-session7d.sh" | grep -v precompile
for set in small-m small-n; do
    timeout 150 $B --shapes .gpu/shapes/$set.txt >"$OUT/$set.txt" 2>&1
    echo "== $set rc=$? ${SECONDS}s"
    grep -E "^[0-9]+x[0-9]+x[0-9]+ |^ratio" "$OUT/$set.txt" | awk '{print $1, $5, $7, $9}' | tr '\n' ';'; echo
done
(cd "$OUT" && tar czf tests.tgz matmul*.txt && rm -f matmul*.txt)
