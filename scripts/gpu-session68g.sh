#!/usr/bin/env bash
# Session 68's closing run (~6 min) at the new defaults (the tall tiles and the multicast
# clusters' ring epilogues among the candidates): (1) the whole gpu_matmul grid and gpu_pack
# (whose 2048x4097x64 odd-D case with a bias along m is now planned on the transposed tall
# 192x64 with D in place); (2) the issue sets' shapes whose plan moved (small-M's 128x7168x16384
# and 128x8192x8192 onto 128x64 in 1 x 2 with its ring epilogue; 3000x1000x4000 onto the tall
# 192x128 in the ring) and 67d's 5888x280 pair, the new defaults against
# DEEPGEMM_TALL=0 DEEPGEMM_RING_CLUSTERS=0 alternating twice, cuBLASLt in each run.
#     here:  bash scripts/gpu-pack.sh (keep .gpu/tests/gpu_matmul and gpu_pack)   there: timeout 590 bash scripts/gpu-session68g.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
printf '128x7168x16384\n128x8192x8192\n3000x1000x4000\n1000x3000x4000\n5888x280x5640\n5888x280x5632\n' >/tmp/moved68g.txt
for r in 1 2; do
    DEEPGEMM_TALL=0 DEEPGEMM_RING_CLUSTERS=0 bench old-$r --layout TN --shapes /tmp/moved68g.txt --check sample --iters 30
    bench new-$r --layout TN --shapes /tmp/moved68g.txt --check sample --iters 30
done
python3 scripts/compare-runs.py "$OUT" "new-*" "old-*" 2>/dev/null | tail -3
timeout 230 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt") $(grep -E '^test result' "$OUT/matmul.txt")"
grep -m5 -E "FAIL|panicked" "$OUT/matmul.txt"
timeout 120 .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture >"$OUT/pack.txt" 2>&1
echo "gpu_pack rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/pack.txt")"
grep -m5 -E "FAILED|panicked" "$OUT/pack.txt"
finish
