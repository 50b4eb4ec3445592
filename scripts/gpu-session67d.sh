#!/usr/bin/env bash
# Session 67 (~6 min): the tall 192-row tiles (three consumer warpgroups, 512 threads;
# `DEEPGEMM_TALL`), first run. (1) Correct: the bench's float64 check with them forced
# (DEEPGEMM_TALL=only), unclustered and in 1 x 2 (DEEPGEMM_CLUSTER=1 / 1x2), on ragged shapes,
# both 16-bit types, fp32 out, the epilogues and beta; gpu_matmul's grid groups under
# DEEPGEMM_TALL=only. (2) Timed: every tall candidate of scripts/shapes/tall-67.txt interleaved
# with cuBLASLt (DEEPGEMM_TALL=only --sweep), and the default plans against the model's plans
# with the tall tiles among the candidates (DEEPGEMM_TALL=1), alternating twice.
# Predicted: 5888x280x5640 on 192x72 in 1 x 2 (124 CTAs, 168 rows of requests a CTA-stage
# against 272) ~50 us against 71, unclustered 192x72 no faster than now (its CTAs ask 264 rows);
# 5632 ~38-42 against 45; the multi-wave controls keep their plans.
# LITE=1 (~4 min, for a short device budget): two check specs, one grid group, three shapes.
#     here:  bash scripts/gpu-pack.sh (keep .gpu/tests/gpu_matmul only)   there: timeout 590 bash scripts/gpu-session67d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
"$B" --precompile m192 >/dev/null; echo "precompile ${SECONDS}s"
SPECS=("bf16 bf16 default 0" "fp16 fp16 relu 1" "bf16 fp32 gelu_bias 0" "fp16 fp32 bias 1" "bf16 bf16 gelu_bias 1")
GROUPS1="shapes_types_transposes epilogues alpha_beta_in_place tiles_past_the_edges"
GROUPS2="shapes_types_transposes tiles_past_the_edges"
SHAPES=.gpu/shapes/tall-67.txt
T1=150 T2=100 TS=120
if [ -n "${LITE:-}" ]; then
    T1=60 T2=50 TS=40
    SPECS=("bf16 bf16 default 0" "fp16 fp32 gelu_bias 1")
    GROUPS1="shapes_types_transposes"
    GROUPS2="tiles_past_the_edges"
    printf '5888x280x5640\n5888x280x5632\n2944x544x6480\n' >/tmp/tall-lite.txt
    SHAPES=/tmp/tall-lite.txt
fi
for cl in 1 1x2; do
    for spec in "${SPECS[@]}"; do
        set -- $spec
        out=fp32; [ "$2" = "$1" ] && out=same
        n=chk-c$cl-$1-$2-$3-b$4
        DEEPGEMM_CLUSTER=$cl DEEPGEMM_TALL=only timeout 60 "$B" --dtype $1 --out $out --epilogue $3 --beta $4 --check full --iters 3 --warmup 1 \
            --shape 192x72x64 --shape 193x73x65 --shape 17x3x129 --shape 1x1x1 --shape 385x200x1000 --shape 1000x300x2000 --shape 577x129x4104 >"$OUT/$n.txt" 2>&1
        echo "$n rc=$? PASS $(grep -cE ' PASS$' "$OUT/$n.txt") FAIL $(grep -cE ' FAIL$' "$OUT/$n.txt") kernels: $(grep -oE 'dg_sm90_[^ ,)]*|dg_portable[^ ,)]*' "$OUT/$n.txt" | sed 's/dg_sm90_[a-z0-9]*_[a-z0-9]*_tn_//' | sort -u | tr '\n' ' ')"
    done
done
echo "checks ${SECONDS}s"
# shellcheck disable=SC2086
DEEPGEMM_TALL=only matmul_groups tall $((SECONDS + T1)) $GROUPS1
# shellcheck disable=SC2086
DEEPGEMM_CLUSTER=1x2 DEEPGEMM_TALL=only matmul_groups tallc $((SECONDS + T2)) $GROUPS2
DEEPGEMM_TALL=only sweep tall $TS --interleave --layout TN --shapes $SHAPES
grep -E "^\[|sweep #|cuBLASLt, interleaved" "$OUT/sweep-tall.txt" | sed -e 's/dg_sm90_bf16_bf16_tn_//' -e 's/(vs the timed.*//' -e 's/.*(heuristic [0-9.]* ms, //' | cut -c1-110 | head -120
for r in 1 2; do
    [ $((560 - SECONDS)) -gt 30 ] || break
    bench TN_old-$r --layout TN --shapes $SHAPES --check none --iters 30
    DEEPGEMM_TALL=1 bench TN_new-$r --layout TN --shapes $SHAPES --check none --iters 30
done
python3 scripts/compare-runs.py "$OUT" "TN_new-*" "TN_old-*" 2>/dev/null | tail -4
finish
