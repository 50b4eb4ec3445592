#!/usr/bin/env bash
# Session 62's last call if the device lends one (~4 min): scripts/gpu-session62c.sh's first
# two steps only (the green-context test, then the whole gpu_matmul grid at the default plans).
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 330 bash scripts/gpu-session62d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
timeout 60 .gpu/tests/gpu_multi --ignored --test-threads=1 --nocapture --exact \
    green_context_plans_for_its_sms >"$OUT/green.txt" 2>&1
echo "green context rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/green.txt")"
grep -E "^green|^group|  log:|panicked|FAIL" "$OUT/green.txt" | head -14
timeout $((320 - SECONDS)) .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
grep -E "^group .*passed" "$OUT/matmul.txt" | awk '{print $2, $3, $4, $6}' | tr '\n' ';'; echo
finish
