#!/usr/bin/env bash
# Session 60, last call (~4-5 min): the tf32 solo tiles (TN, both operands K-major; 64x64 and
# 64x128, 64-deep, 128-deep in half the SM and with the whole SM's ring; opt-in under
# DEEPGEMM_SOLO=1, planned by no default rule). Correct first: their direct cases; the bench's
# check (float64 reference) with the solo tiles forced, 128-deep, their split schedules
# (DEEPGEMM_SOLO_SK=1) and then forced Stream-K, on ragged and long-k shapes. Then what they
# are worth on the under-a-wave long-k shapes where tf32 trails cuBLASLt (0.75-0.95x on any
# plan, session 59): every forced solo candidate in an interleaved sweep, next to the
# default plans' run. Predicted: all pass; the split full-ring solo 0.8-0.9 of the default
# plans' time on 536x232x13832-like shapes (as bf16's in session 47), slower on 1632x264x2832.
#     here:  bash scripts/gpu-pack.sh; keep tests/nvrtc_sm90 only
#     there: timeout 330 bash scripts/gpu-session60f.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_SM90_VARIANTS="f32_f32_tn_m64n" direct direct 120 || { finish; exit 1; }
F="DEEPGEMM_SOLO=1 DEEPGEMM_DEEP=1 DEEPGEMM_SOLO_SK=1"
C="--shape 127x129x1000 --shape 300x300x2056 --shape 65x1000x4096 --shape 1000x1000x1000 --shape 536x232x13832 --shape 1000x344x11120"
env $F "$B" --dtype tf32 --layout TN --iters 2 --warmup 1 $C >"$OUT/chk-split.txt" 2>&1
echo "chk split rc=$? $(grep -c ' PASS$' "$OUT/chk-split.txt") PASS $(grep -c FAIL "$OUT/chk-split.txt") FAIL ${SECONDS}s"
env $F DEEPGEMM_DECOMPOSITION=streamk "$B" --dtype tf32 --layout TN --iters 2 --warmup 1 $C >"$OUT/chk-sk.txt" 2>&1
echo "chk streamk rc=$? $(grep -c ' PASS$' "$OUT/chk-sk.txt") PASS $(grep -c FAIL "$OUT/chk-sk.txt") FAIL ${SECONDS}s"
DEEPGEMM_SOLO=1 "$B" --dtype tf32 --layout TN --iters 2 --warmup 1 $C >"$OUT/chk-64deep.txt" 2>&1
echo "chk 64-deep rc=$? $(grep -c ' PASS$' "$OUT/chk-64deep.txt") PASS $(grep -c FAIL "$OUT/chk-64deep.txt") FAIL ${SECONDS}s"
grep -h -E "^\[" "$OUT"/chk-*.txt | sed -e 's/.*heuristic [0-9.]* ms, //' | cut -c1-90
S="--shape 536x232x13832 --shape 600x240x16144 --shape 1000x344x11120 --shape 368x360x11072 --shape 1632x264x2832"
bench default --dtype tf32 --layout TN --iters 20 $S
env $F timeout 90 "$B" --sweep --check none --interleave --iters 12 --warmup 3 --dtype tf32 --layout TN $S >"$OUT/sweep-solo.txt" 2>&1
echo "sweep rc=$? ${SECONDS}s"
grep -E "^\[|sweep #[0-3] |cuBLASLt, inter" "$OUT/sweep-solo.txt" | sed 's/(vs the timed.*//' | cut -c1-130
finish
