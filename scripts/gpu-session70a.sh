#!/usr/bin/env bash
# Session 70, first call (~9.5 min): the column-split 192-row tiles (kColSplit, built this
# session, `DEEPGEMM_COLSPLIT`), first run. (1) Correct: the bench's float64 check with them
# forced (DEEPGEMM_COLSPLIT=only) unclustered, 2 x 1 and 1 x 2 on ragged shapes (n past the
# edge by more than half a tile: the move by whole halves), both 16-bit types, fp32 out, the
# epilogues and beta; gpu_matmul's groups under DEEPGEMM_COLSPLIT=only; the default plans
# checked in every layout (the producer's ring addresses changed in every variant).
# (2) Timed: every column-split candidate interleaved with cuBLASLt on six shapes (--sweep),
# and the 19 general-set shapes whose plan DEEPGEMM_COLSPLIT=1 moves
# (scripts/shapes/colsplit-70-moved.txt) against the default plans, alternating twice.
# Predicted (the model, from the mainloop probe's cycles): 6240x752x4600 on 192x192 in 1 x 2
# ~59 us against 78-84 (cuBLASLt 58.5 under ncu); the moved shapes 0.90-0.94 of their time.
# First try (32 / 240 registers): every check hung at the register hand-over (setmaxnreg.inc
# waits for registers the CTA never had); the kernel now static_asserts the split fits.
#     here:  CUBINS="_cs,$(paste -sd, scripts/shapes/names-70a.txt)" bash scripts/gpu-pack.sh
#            (keep .gpu/tests/gpu_matmul only)      there: timeout 590 bash scripts/gpu-session70a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
"$B" --precompile _cs >/dev/null; echo "precompile ${SECONDS}s"
SPECS=("bf16 bf16 default 0" "bf16 fp32 gelu_bias 1" "fp16 fp16 relu 1" "bf16 bf16 gelu_bias 1")
# SHORT=1 (for a device budget under ~8 min): two specs a cluster shape, one grid group, two
# layouts' default checks, four sweep shapes, one round of the moved shapes.
[ -n "${SHORT:-}" ] && SPECS=("${SPECS[@]:0:2}")
# A hang (timeout's rc 124) skips every later column-split run: each would cost its timeout.
HUNG=
for cl in 1 2 1x2; do
    for spec in "${SPECS[@]}"; do
        [ -n "$HUNG" ] && break 2
        set -- $spec
        out=fp32; [ "$2" = "$1" ] && out=same
        n=chk-c$cl-$1-$2-$3-b$4
        DEEPGEMM_CLUSTER=$cl DEEPGEMM_COLSPLIT=only timeout 30 "$B" --dtype $1 --out $out --epilogue $3 --beta $4 --iters 3 --warmup 1 \
            --shape 192x192x64 --shape 193x161x65 --shape 17x3x129 --shape 1x1x1 --shape 385x250x1000 \
            --shape 577x200x4104 --shape 1000x300x2000 --shape 1184x2616x1112 >"$OUT/$n.txt" 2>&1
        rc=$?; [ $rc = 124 ] && HUNG=1
        echo "$n rc=$rc PASS $(grep -cE ' PASS$' "$OUT/$n.txt") FAIL $(grep -cE ' FAIL$' "$OUT/$n.txt") kernels: $(grep -oE 'dg_sm90_[^ ,)]*|dg_portable[^ ,)]*' "$OUT/$n.txt" | sed 's/dg_sm90_[a-z0-9]*_[a-z0-9]*_tn_//' | sort -u | tr '\n' ' ')"
    done
done
echo "checks ${SECONDS}s"
if [ -n "$HUNG" ]; then
    echo "column-split runs hung: only the default plans' checks follow"
elif [ -n "${TINY:-}" ]; then
    :  # TINY=1 (with SHORT=1, ~4 min): no grid group, TN's default check only
elif [ -n "${SHORT:-}" ]; then
    DEEPGEMM_COLSPLIT=only matmul_groups cs $((SECONDS + 60)) tiles_past_the_edges
else
    DEEPGEMM_COLSPLIT=only matmul_groups cs $((SECONDS + 120)) tiles_past_the_edges alpha_beta_in_place shapes_types_transposes
fi
# The default plans (every variant's producer changed): each layout, the float64 check.
LAYOUTS="TN NN TT NT"; [ -n "${SHORT:-}" ] && LAYOUTS="TN NT"; [ -n "${TINY:-}" ] && LAYOUTS=TN
for l in $LAYOUTS; do
    n=chk-default-$l
    grep -vE '^\s*#|^\s*$' .gpu/shapes/general-63-aligned.txt | awk 'NR % 4 == 1 {print $1}' >/tmp/g12.txt
    timeout 40 "$B" --layout $l --iters 2 --warmup 1 --shapes /tmp/g12.txt --shape 577x200x4104 --shape 131x67x129 >"$OUT/$n.txt" 2>&1
    echo "$n rc=$? PASS $(grep -cE ' PASS$' "$OUT/$n.txt") FAIL $(grep -cE ' FAIL$' "$OUT/$n.txt")"
done
[ -n "$HUNG" ] && finish && exit 0
printf '6240x752x4600\n928x4032x1224\n4096x4096x4096\n7952x992x1064\n264x3848x2088\n1184x2616x1112\n' >/tmp/s70a.txt
[ -n "${SHORT:-}" ] && sed -i '5,$d' /tmp/s70a.txt
DEEPGEMM_COLSPLIT=only sweep cs $([ -n "${SHORT:-}" ] && echo 60 || echo 90) --interleave --layout TN --shapes /tmp/s70a.txt
grep -E "^\[|sweep #|cuBLASLt, interleaved" "$OUT/sweep-cs.txt" | sed -e 's/dg_sm90_bf16_bf16_tn_//' -e 's/(vs the timed.*//' -e 's/.*(heuristic [0-9.]* ms, //' | cut -c1-110 | head -60
for r in 1 2; do
    [ $((${UNTIL:-560} - SECONDS)) -gt 40 ] || break
    bench TN_old-$r --layout TN --shapes .gpu/shapes/colsplit-70-moved.txt --check none --iters 30
    DEEPGEMM_COLSPLIT=1 bench TN_new-$r --layout TN --shapes .gpu/shapes/colsplit-70-moved.txt --check none --iters 30
done
python3 scripts/compare-runs.py "$OUT" "TN_new-*" "TN_old-*" 2>/dev/null | tail -4
finish
