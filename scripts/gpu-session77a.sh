#!/usr/bin/env bash
# The next session's first call (written in session 76): what is still owed, in order of worth
# while the DEADLINE (seconds) leaves room. Issue 4's tables (nothing on an H200 since session
# 60; session 76's H100 call re-ran only issue 3's set A, fp16, bias + GELU and NN), then
# issue 3's remaining rows, then the wide ping-pong tiles' direct cases session 76 could not
# finish (the test compiles its kernels first: 6 of 15 ran in 150 s).
# Predicted (as session 74's `74c` on an H100; as session 60's `60d` on an H200): tf32 8192³
# ~1.0-1.02x, 4097³ ~4.2x (H100) / ~4.6x (H200), 4095³ / 4100³ ~72% / 63% (H100) or 74% / 70%
# (H200) of 4096³'s rate, 127x4095x4096 ~2.7x / ~3.0x, 1000x3000x4000 ~0.98-0.99, small-M
# ~1.07 / ~1.05, small-N ~1.07 / ~1.06. No plan or production kernel has changed since.
#     here:  CUBINS="_pp,$(paste -sd, scripts/shapes/names-78a.txt)" bash scripts/gpu-pack.sh
#     (names-78a: the default plans' kernels of its runs, from --plans in session 78, so that
#     nothing compiles there; one pack for 77c and 77a: join both CUBINS lists)
#     there: DEADLINE=<under status's budget_left_s less ~120> timeout 590 bash scripts/gpu-session77a.sh
# Variables for a gpu-env.sh function: `with VAR=... FUNCTION ...` (never `env`, which runs
# programs only).
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEADLINE=${DEADLINE:-575}
have() { [ $((SECONDS + $1)) -lt "$DEADLINE" ]; }
nvidia-smi -L
S=.gpu/shapes
# Session 76's review fixes to the handle's default workspace (`89eb4f8`: a call holds its
# stream's buffer while it enqueues, relaxed capture mode for the allocation, keys by context)
# ran only on the CPU: both GPU tests, the second new (four threads on one handle and stream).
# The first try in session 76 spent its 120 s compiling; give it 200.
# SKIP_WS=1: an earlier call on the machine ran them (session 77's first call did).
if [ -z "${SKIP_WS:-}" ] && have 240; then
    timeout 200 .gpu/tests/gpu_blas --ignored --test-threads=1 --nocapture gemm_ex_default_workspace \
        >"$OUT/default-ws.txt" 2>&1
    echo "default workspace ${SECONDS}s: $(grep -E '^(group|test result)' "$OUT/default-ws.txt" | tr '\n' ' ')"
    grep -m6 -E "FAIL|panicked" "$OUT/default-ws.txt"
fi
have 60 && bench cliffs --workspace-mib 160 --check sample --shapes $S/cliffs.txt
have 60 && bench small-m --shapes $S/small-m.txt
have 40 && bench tf32-1 --dtype tf32 --shape 8192x8192x8192 --iters 20
have 60 && bench seta-bf16 --shapes $S/set-a.txt
have 60 && bench small-n --shapes $S/small-n.txt
for l in TT NT; do have 30 && bench "layout-$l" --layout $l --shape 4096x4096x4096 --shape 8192x8192x8192; done
have 30 && bench gelu-bias --epilogue gelu_bias --shape 4096x14336x4096
have 60 && bench seta-fp16 --dtype fp16 --shapes $S/set-a.txt
have 200 && DEEPGEMM_SM90_VARIANTS=_pp direct pp-direct $((DEADLINE - SECONDS - 30))
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
finish
