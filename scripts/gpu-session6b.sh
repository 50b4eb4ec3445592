#!/usr/bin/env bash
# Second GPU call of session 6: where the ping-pong tiles might pay after all. Set A showed
# them 10-15% behind the cooperative 128-row tiles (the first call, gpu-session6a.sh); here the
# small-M and small-N sets, the 32 random mid-size shapes and the rest of set A, each with
# ping-pong forced (DEEPGEMM_PINGPONG=1), against cuBLASLt in the same run; the same sets with
# the cooperative tiles were measured in session 5 (BENCHMARKS.md) at unchanged kernels.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session6b.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
$B --precompile _m64n >/dev/null
echo "precompile ${SECONDS}s"
DEEPGEMM_PINGPONG=1 timeout 130 $B --shapes .gpu/shapes/small-m.txt >"$OUT/small-m-pp.txt" 2>&1
echo "small-m rc=$? ${SECONDS}s"
DEEPGEMM_PINGPONG=1 timeout 100 $B --shapes .gpu/shapes/small-n.txt >"$OUT/small-n-pp.txt" 2>&1
echo "small-n rc=$? ${SECONDS}s"
DEEPGEMM_PINGPONG=1 timeout 100 $B --shapes .gpu/shapes/random.txt >"$OUT/random-pp.txt" 2>&1
echo "random rc=$? ${SECONDS}s"
DEEPGEMM_PINGPONG=1 timeout 60 $B --shape 4096x28672x8192 --shape 4096x2112x7168 --shape 4096x24576x1536 \
    --shape 4096x7168x16384 --shape 4096x4096x7168 --shape 4096x7168x2048 --shape 8192x8192x1024 >"$OUT/set-a-rest-pp.txt" 2>&1
echo "set-a rest rc=$? ${SECONDS}s"
for f in small-m-pp small-n-pp random-pp set-a-rest-pp; do
    echo "== $f"; grep -E "^[0-9]+x[0-9]+x[0-9]+ |^ratio" "$OUT/$f.txt" | awk '{print $1, $5, $7, $9}' | tr '\n' ';'; echo
    grep -E "^\[" "$OUT/$f.txt" | sed -e 's/.*heuristic [0-9.]* ms, //' -e 's/); check.*//' -e 's/dg_sm90_bf16_bf16_//' | tr '\n' ' '; echo
done
echo "done ${SECONDS}s"
