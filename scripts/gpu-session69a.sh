#!/usr/bin/env bash
# Session 69, first call (~9.5 min): what session 68 left owed at main's defaults (the tall tiles
# off the 32-byte sectors and the multicast clusters' ring epilogues among the candidates):
# (1) every sm90 kernel precompiled on all cores (68g's grid spent its 230 s compiling);
# (2) every heuristic candidate of 1000x3000x4000 TN timed interleaved with cuBLASLt (issue 4's
# 0.98x: the model ranks the ring 128x192 in 2 x 1, cuBLASLt's own tile and cluster, 11% over
# the unclustered one on CLUSTER_START_S, fitted in session 17 before the ring clusters);
# (3) the whole gpu_matmul grid, (4) gpu_pack.
#     here:  bash scripts/gpu-pack.sh (keep .gpu/tests/gpu_matmul and gpu_pack)   there: timeout 590 bash scripts/gpu-session69a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
precompile_all
printf '1000x3000x4000\n' >/tmp/s69a.txt
sweep 1000x3000x4000-TN 40 --interleave --layout TN --shapes /tmp/s69a.txt
grep -E "^ *(dg_|cuBLASLt|[0-9])" "$OUT/sweep-1000x3000x4000-TN.txt" | head -30
timeout 300 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt") $(grep -E '^test result' "$OUT/matmul.txt")"
grep -m5 -E "FAIL|panicked" "$OUT/matmul.txt"
left=$((575 - SECONDS))
timeout $left .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture >"$OUT/pack.txt" 2>&1
echo "gpu_pack rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/pack.txt")"
grep -m5 -E "FAILED|panicked" "$OUT/pack.txt"
finish
