#!/usr/bin/env bash
# Third GPU call of session 6: how the decompositions compare on small-m and cliff shapes whose
# times are far from the model (127x4095x4096: model 17.8 us, measured 27 us on 64 CTAs). Every
# top-8 tile timed as the model ranks it (default), then with split-K (each tile split about
# four ways) and Stream-K over all tiles forced (DEEPGEMM_DECOMPOSITION), one process each.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session6c.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
$B --precompile bf16_bf16_tn_m128 >/dev/null
echo "precompile ${SECONDS}s"
S="--shape 127x4095x4096 --shape 128x4096x4096 --shape 64x4096x4096 --shape 64x2112x7168 --shape 128x2112x7168 --shape 16x4096x4096 --shape 1x2112x7168"
for d in auto splitk streamk; do
    DEEPGEMM_DECOMPOSITION=$d timeout 70 $B --sweep $S >"$OUT/sweep-$d.txt" 2>&1
    echo "$d rc=$? ${SECONDS}s"
done
for d in auto splitk streamk; do
    echo "== $d"; grep -E "^\[|sweep #" "$OUT/sweep-$d.txt" | sed -e 's/(vs the timed.*//' -e 's/deepgemm first call.*heuristic [0-9.]* ms, //' -e 's/dg_sm90_bf16_bf16_//' -e 's/TN bf16->bf16 default: //' -e 's/); check.*//' | cut -c1-100
    grep -E "^[0-9]+x[0-9]+x[0-9]+ " "$OUT/sweep-$d.txt" | awk '{print $1, $5, $7, $9}' | tr '\n' ';'; echo
done
echo "done ${SECONDS}s"
