#!/usr/bin/env bash
# Session 77: the column-split 192-row tiles with an M-major A (NN; kernels/sm90/gemm.cuh
# `kColSplit` with kTransA = 1, unclustered and 2 x 1; `DEEPGEMM_COLSPLIT_NN=1`), first run.
# (1) Correct: the bench's float64 check with them forced (DEEPGEMM_COLSPLIT=only plus the NN
# switch) unclustered and 2 x 1 on ragged shapes (tiles past both edges, n past the edge by
# more than half a tile), bf16 and fp16, fp32 out, the epilogues and beta; gpu_matmul's groups
# under the same switches. (2) Timed: the 21 NN shapes whose first plan the switch moves
# (scripts/shapes/colsplit-77-nn-moved.txt) against the default plans, alternating twice, then
# checked under the switch.
# Predicted: the model (fitted on TN) puts the moves at 0.83-1.00 of the time (median 0.96);
# session 71's TN moves measured 0.897 against a prediction of 0.95-0.97, and an M-major A
# loads three 64-row boxes a stage instead of one: 0.90-0.97, none over 1.05.
# Session 78 (a review): TT computed transposed is NN, so the switch moves TT shapes onto these
# tiles too (with a row-major D): (3) the same forced checks in TT, and the 12 TT moves
# (scripts/shapes/colsplit-78-tt-moved.txt, modelled 0.83-0.99) timed likewise.
#     here:  CUBINS="_cs,$(paste -sd, scripts/shapes/names-78b.txt)" bash scripts/gpu-pack.sh
#     there: DEADLINE=<seconds> timeout 590 bash scripts/gpu-session77b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEADLINE=${DEADLINE:-560}
have() { [ $((SECONDS + $1)) -lt "$DEADLINE" ]; }
nvidia-smi -L
NN="DEEPGEMM_COLSPLIT_NN=1"
SPECS=("bf16 bf16 default 0" "bf16 fp32 gelu_bias 1" "fp16 fp16 relu 1" "bf16 bf16 bias 1")
# SHORT=1 (a call with ~3 minutes for this): two specs a cluster shape, no gpu_matmul groups,
# one round of timings.
[ -n "${SHORT:-}" ] && SPECS=("bf16 bf16 default 0" "fp16 fp32 gelu_bias 1")
ROUNDS="1 2"; [ -n "${SHORT:-}" ] && ROUNDS=1
# Session 78: nvrtc_sm90's direct column-split cases first (TN 1 x 1 / 2 x 1 / 1 x 2, NN
# 1 x 1 / 2 x 1, both epilogues, row-major storage, against the float64 reference): a dry run
# with stubs showed a typical 77c hand-over leaving no time for them after the checks.
have 120 && with DEEPGEMM_SM90_VARIANTS=_cs direct cs-direct 90
# Rows of the bench's table (each also has a "-> PASS" detail line: count one of the two).
count() { grep -cE "^[0-9]+x[0-9]+x[0-9]+ .* $1\$" "$2" 2>/dev/null; }
HUNG=
# TT: DEEPGEMM_COLSPLIT=only narrows only the direct TT plans (none is a column split), so the
# transposed ones are forced by name, on shapes whose leading dimensions TMA takes (others
# would fall back to the portable kernel): swapped, these plan 192 x 160 / 192 x 192 in both
# cluster shapes.
TT_ONLY="DEEPGEMM_VARIANT=_cs"
TT_SHAPES="--shape 200x168x64 --shape 392x248x1000 --shape 1000x304x2000 --shape 4104x1000x264 --shape 584x200x4104 --shape 8x8x8"
NN_SHAPES="--shape 192x192x64 --shape 193x161x65 --shape 17x3x129 --shape 1x1x1 --shape 385x250x1000 --shape 577x200x4104 --shape 1000x300x2000 --shape 1184x2616x1112 --shape 4097x1000x257"
for lay in NN TT; do
for cl in 1 2; do
    for spec in "${SPECS[@]}"; do
        [ -n "$HUNG" ] && break 3
        have 40 || break 3
        set -- $spec
        out=fp32; [ "$2" = "$1" ] && out=same
        n=chk-${lay,,}-c$cl-$1-$2-$3-b$4
        if [ $lay = TT ]; then only=$TT_ONLY; shapes=$TT_SHAPES; else only=DEEPGEMM_COLSPLIT=only; shapes=$NN_SHAPES; fi
        with DEEPGEMM_CLUSTER=$cl DEEPGEMM_COLSPLIT=only $only $NN timeout 40 "$B" --layout $lay --dtype $1 --out $out \
            --epilogue $3 --beta $4 --iters 3 --warmup 1 $shapes >"$OUT/$n.txt" 2>&1
        rc=$?; [ $rc = 124 ] && HUNG=1
        echo "$n rc=$rc PASS $(count PASS "$OUT/$n.txt") FAIL $(count FAIL "$OUT/$n.txt") kernels: $(grep -oE 'dg_sm90_[^ ,)]*|dg_portable[^ ,)]*' "$OUT/$n.txt" | sed -E 's/dg_sm90_[a-z0-9]*_[a-z0-9]*_(nn|tt)_//' | sort -u | tr '\n' ' ')"
        grep -m3 -E "FAIL" "$OUT/$n.txt" | cut -c1-300
    done
done
done
echo "checks ${SECONDS}s"
if [ -n "$HUNG" ]; then
    echo "column-split NN runs hung: nothing more of them"
    finish
    exit 0
fi
[ -z "${SHORT:-}" ] && have 150 && with DEEPGEMM_COLSPLIT=only $NN matmul_groups csnn $((DEADLINE - 110)) shapes_types_transposes tiles_past_the_edges alpha_beta_in_place
S=.gpu/shapes/colsplit-77-nn-moved.txt
for r in $ROUNDS; do
    have 60 || break
    bench NN_old-$r --layout NN --shapes $S --check none --iters 30
    with $NN bench NN_new-$r --layout NN --shapes $S --check none --iters 30
done
python3 scripts/compare-runs.py "$OUT" "NN_new-*" "NN_old-*" 2>/dev/null | tail -4
have 40 && with $NN bench NNchk --layout NN --shapes $S --iters 2 --warmup 1
echo "NNchk PASS $(count PASS "$OUT/NNchk.txt") FAIL $(count FAIL "$OUT/NNchk.txt")"
grep -E "^[0-9].* FAIL$" "$OUT/NNchk.txt" 2>/dev/null | head -3
T=.gpu/shapes/colsplit-78-tt-moved.txt
for r in $ROUNDS; do
    have 50 || break
    bench TT_old-$r --layout TT --shapes $T --check none --iters 30
    with $NN bench TT_new-$r --layout TT --shapes $T --check none --iters 30
done
python3 scripts/compare-runs.py "$OUT" "TT_new-*" "TT_old-*" 2>/dev/null | tail -4
have 30 && with $NN bench TTchk --layout TT --shapes $T --iters 2 --warmup 1
echo "TTchk PASS $(count PASS "$OUT/TTchk.txt") FAIL $(count FAIL "$OUT/TTchk.txt")"
grep -E "^[0-9].* FAIL$" "$OUT/TTchk.txt" 2>/dev/null | head -3
finish
