#!/usr/bin/env bash
# Session 67 (~5 min): the tall 192-row tiles (three consumer warpgroups, 512 threads;
# `DEEPGEMM_TALL`), first run. (1) Correct: the bench's float64 check with them forced
# (DEEPGEMM_TALL=only) on ragged shapes, both 16-bit types, fp32 out, the epilogues and beta;
# gpu_matmul's grid groups under DEEPGEMM_TALL=only. (2) Timed: every candidate of
# scripts/shapes/tall-67.txt with the tall tiles among them (DEEPGEMM_TALL=1), interleaved
# with cuBLASLt. Predicted: 5888x280x5640 on 192x72 (124 CTAs) ~50 us against 71 (its requests
# a CTA 0.58x of 128x144's), 5632 ~40 against 45; multi-wave controls slower than 128x256.
#     here:  bash scripts/gpu-pack.sh (keep .gpu/tests/gpu_matmul only)   there: timeout 590 bash scripts/gpu-session67d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
"$B" --precompile m192 >/dev/null; echo "precompile ${SECONDS}s"
C=0
for spec in "bf16 bf16 default 0" "fp16 fp16 relu 1" "bf16 fp32 gelu_bias 0" "fp16 fp32 bias 1" "bf16 bf16 gelu_bias 1"; do
    set -- $spec
    out=$2; [ "$out" = "$1" ] && out=same
    DEEPGEMM_TALL=only bench chk-$1-$2-$3-b$4 --dtype $1 --out $out --epilogue $3 --beta $4 --check full --iters 3 --warmup 1 \
        --shape 192x72x64 --shape 193x73x65 --shape 17x3x129 --shape 1x1x1 --shape 385x200x1000 --shape 1000x300x2000 --shape 577x129x4104 >/dev/null
    grep -cE " PASS$" "$OUT/chk-$1-$2-$3-b$4.txt" | sed "s/^/$1 $2 $3 beta $4 PASS: /"
    grep -E " FAIL|error" "$OUT/chk-$1-$2-$3-b$4.txt" | head -3
    grep -oE "dg_sm90[^ ,)]*|dg_portable[^ ,)]*" "$OUT/chk-$1-$2-$3-b$4.txt" | sort | uniq -c | head -4
done
DEEPGEMM_TALL=only matmul_groups tall 230 shapes_types_transposes epilogues alpha_beta_in_place tiles_past_the_edges
DEEPGEMM_TALL=1 sweep tall 200 --interleave --layout TN --shapes .gpu/shapes/tall-67.txt
grep -E "^\[|sweep #|cuBLASLt, interleaved" "$OUT/sweep-tall.txt" | sed -e 's/dg_sm90_bf16_bf16_tn_//' -e 's/(vs the timed.*//' -e 's/.*(heuristic [0-9.]* ms, //' | cut -c1-110 | head -120
finish
