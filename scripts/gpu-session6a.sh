#!/usr/bin/env bash
# First GPU call of session 6: the ping-pong kernels (64-row tiles, one consumer warpgroup
# each, in turn; `sm90::PINGPONG_TILES`). Their direct kernel cases, the gpu_matmul grid with
# DEEPGEMM_PINGPONG=1 (ping-pong wherever a variant takes the problem), then set A, the wave
# set, small-M and bias+GELU with ping-pong forced (every ping-pong candidate swept on set A)
# against the cooperative tiles (DEEPGEMM_PINGPONG=0, with COOP=1; the first call of the
# session ran them) in the same session. The kernels are compiled on every core first.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session6a.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
$B --precompile _m64n
echo "precompile ${SECONDS}s"
if [ -z "${SKIP_TESTS:-}" ]; then
    DEEPGEMM_SM90_VARIANTS=_m64n timeout 120 .gpu/tests/nvrtc_sm90 --ignored --nocapture --test-threads=1 sm90_kernel_matches_reference_on_gpu >"$OUT/sm90.txt" 2>&1
    echo "nvrtc_sm90 ping-pong rc=$? ${SECONDS}s: $(grep -E 'test result' "$OUT/sm90.txt")"
    grep -E "FAIL|panicked|max scaled err [1-9]" "$OUT/sm90.txt" | head -5 | cut -c1-250
    DEEPGEMM_PINGPONG=1 timeout 200 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul-pp.txt" 2>&1
    echo "gpu_matmul pingpong rc=$? ${SECONDS}s: $(groups "$OUT/matmul-pp.txt")"
    (cd "$OUT" && tar czf tests.tgz sm90.txt matmul*.txt && rm -f sm90.txt matmul*.txt)
fi
[ -n "${ONLY_TESTS:-}" ] && exit 0
DEEPGEMM_PINGPONG=1 timeout 150 $B --sweep --shapes .gpu/shapes/set-a.txt >"$OUT/set-a-pp.txt" 2>&1
echo "set-a pp rc=$? ${SECONDS}s"
if [ -n "${COOP:-}" ]; then
    DEEPGEMM_PINGPONG=0 $B --shapes .gpu/shapes/set-a.txt >"$OUT/set-a-coop.txt" 2>&1
    echo "set-a coop rc=$? ${SECONDS}s"
fi
for set in waves small-m; do
    DEEPGEMM_PINGPONG=1 timeout 60 $B --shapes .gpu/shapes/$set.txt >"$OUT/$set-pp.txt" 2>&1
    echo "$set pp rc=$? ${SECONDS}s"
done
DEEPGEMM_PINGPONG=1 timeout 30 $B --epilogue gelu_bias --shape 4096x14336x4096 >"$OUT/gelu-pp.txt" 2>&1
echo "benches ${SECONDS}s"
for f in set-a-pp waves-pp small-m-pp gelu-pp; do
    echo "== $f"; grep -E "^[0-9]+x[0-9]+x[0-9]+ |^ratio" "$OUT/$f.txt" | awk '{print $1, $2, $5, $6, $7, $8, $9, $12}'
    grep -E "^\[" "$OUT/$f.txt" | sed -e 's/.*heuristic [0-9.]* ms, //' -e 's/); check.*//' -e 's/dg_sm90_bf16_bf16_//' | tr '\n' ' '; echo
done
echo "== sweep set-a pp"; grep -E "^\[|sweep #" "$OUT/set-a-pp.txt" | sed -e 's/(vs the timed.*//' -e 's/deepgemm first call.*heuristic [0-9.]* ms, //' -e 's/dg_sm90_bf16_bf16_//' | cut -c1-110
echo "done ${SECONDS}s"
