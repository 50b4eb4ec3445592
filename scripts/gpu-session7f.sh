#!/usr/bin/env bash
# Written in session 7, not run (no device time left): the shapes whose plans the re-read charge
# for narrow tile columns (L2_RELOAD_BYTES_PER_S, branch next/l2-reload-charge) changes, against
# cuBLASLt. Pack and run it from that branch; on main it times main's plans.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session7f.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
SECONDS=0
B=.gpu/deepgemm-bench
$B --precompile bf16_bf16_tn_m128n64k64_s8_c1x1,bf16_bf16_tn_m128n128k64_s6_c1x1 >/dev/null
echo "precompile ${SECONDS}s"
S=""
for s in 64x4096x4096 64x7168x16384 64x4096x7168 4096x64x4096 7168x64x16384 4096x64x7168 4096x128x4096 4096x128x14336 8192x128x8192 7168x128x16384 4096x128x7168; do S="$S --shape $s"; done
timeout 90 $B $S >"$OUT/changed.txt" 2>&1
echo "== changed rc=$? ${SECONDS}s"
grep -E "^[0-9]+x[0-9]+x[0-9]+ |^ratio" "$OUT/changed.txt" | awk '{print $1, $5, $7, $9}' | tr '\n' ';'; echo
grep -E "^\[" "$OUT/changed.txt" | sed -e 's/.*heuristic [0-9.]* ms, //' -e 's/); check.*//' -e 's/dg_sm90_bf16_bf16_tn_//' | tr '\n' ' '; echo
