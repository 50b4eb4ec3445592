#!/usr/bin/env bash
# Fourth GPU call of session 7: traces of Stream-K/split-K launches with the fixup's phases
# (contributor: partial stored, flag raised; owner: flags seen, epilogue done) and of the
# producer's prologue (barriers initialised, schedule made), then the small-N, wave, random and
# cliff sets against cuBLASLt at this commit.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session7d.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
SECONDS=0
B=.gpu/deepgemm-bench
K=bf16_bf16_tn_m128n128k64_s6_c1x1,bf16_bf16_tn_m128n16k64,bf16_bf16_tn_m128n32k64,bf16_bf16_tn_m128n64k64,bf16_bf16_tn_m128n256k64_s4_c1x1
DEEPGEMM_NVRTC_DEFINES=DG_TRACE $B --precompile $K >/dev/null
$B --precompile all >/dev/null
echo "precompile ${SECONDS}s"
trace() {  # label, bench args...: the last launch's trace lines
    local label=$1; shift
    DEEPGEMM_NVRTC_DEFINES=DG_TRACE timeout 30 $B --no-cublas --iters 3 --warmup 1 --check none "$@" >"$OUT/tr.txt" 2>&1
    echo "== $label ($(grep -m1 -oE 'dg_sm90[^ ,)]*' "$OUT/tr.txt" | sed 's/dg_sm90_bf16_bf16_tn_//'))"
    grep "^dg_trace" "$OUT/tr.txt" | tail -4 | sed -e 's/dg_trace dg_sm90_bf16_bf16_tn_[^ ]* //' -e 's/start_ns [0-9]* //'
    grep -qm1 "^dg_trace" "$OUT/tr.txt" || grep -iE "error|fail" "$OUT/tr.txt" | head -3
}
trace "1x64x64" --shape 1x64x64
trace "16x4096x4096" --shape 16x4096x4096
trace "64x2112x7168 #0" --shape 64x2112x7168
trace "64x2112x7168 #7" --shape 64x2112x7168 --algo-index 7
trace "64x4096x4096 #6" --shape 64x4096x4096 --algo-index 6
trace "128x4096x4096 #0" --shape 128x4096x4096
trace "128x4096x4096 #2" --shape 128x4096x4096 --algo-index 2
trace "1664x1664x8192" --shape 1664x1664x8192
echo "traces ${SECONDS}s"
[ -n "${ONLY_TRACES:-}" ] && exit 0
for set in small-n waves random cliffs; do
    timeout 150 $B --shapes .gpu/shapes/$set.txt >"$OUT/$set.txt" 2>&1
    echo "== $set rc=$? ${SECONDS}s"
    grep -E "^[0-9]+x[0-9]+x[0-9]+ |^ratio" "$OUT/$set.txt" | awk '{print $1, $5, $7, $9}' | tr '\n' ';'; echo
done
