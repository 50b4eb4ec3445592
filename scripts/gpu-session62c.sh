#!/usr/bin/env bash
# Session 62, third call (~8 min, asked of an H200): the green-context test (gpu_multi), the
# whole gpu_matmul grid at the default
# plans (since 62b solo_for_short takes tf32 TN: its short-k shapes of m, n >= 256 go to the
# tf32 solo 64x64 unsplit), gpu_pack (packing and D copies share the ranking), then the wave set
# (scripts/gpu-waves.sh: the 128 x 128 tile not yet run on the H200). Expect 0 failed; waves
# predicted as 60's H200 figures (1664² 1.18 / 2176² 1.13 on 128 x 128, 3200² ~1.09-1.11 on
# 128 x 256).
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 590 bash scripts/gpu-session62c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
# Green contexts (session 62, CPU-built): a call on a partition's stream planned for its SMs.
timeout 60 .gpu/tests/gpu_multi --ignored --test-threads=1 --nocapture --exact \
    green_context_plans_for_its_sms >"$OUT/green.txt" 2>&1
echo "green context rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/green.txt")"
grep -E "^green|^group|  log:|panicked|FAIL" "$OUT/green.txt" | head -14
timeout 220 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
grep -E "^group .*passed" "$OUT/matmul.txt" | awk '{print $2, $3, $4, $6}' | tr '\n' ';'; echo
timeout 150 .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture >"$OUT/pack.txt" 2>&1
echo "gpu_pack rc=$? ${SECONDS}s: $(grep -E 'test result' "$OUT/pack.txt")"
grep -m5 -E "FAIL|panicked" "$OUT/pack.txt"
finish
left=$((585 - SECONDS))
[ $left -gt 60 ] && timeout $left bash "$(dirname "$0")/gpu-waves.sh" | tail -32
