#!/usr/bin/env bash
# Fourth GPU call of session 9, on branch next/down-lanes: the general epilogue stores a
# column-major D whose 8-row runs are off the 16-byte grid (odd ld, misaligned D) down the
# columns (32 consecutive rows per warp instruction). Correctness (direct nvrtc_sm90 cases, the
# gpu_matmul grid), then odd-D shapes with no workspace (the general epilogue, not D's aligned
# copy) against main's bench (.gpu/old, scripts/gpu-pack-old.sh main) in the same run.
# Predicted: 50257x8192x768 2.35 -> ~1.3 ms (aligned 50304: 0.91), 4097x4096x4096 (no
# workspace) ~10% faster, aligned shapes unchanged.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session9d.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
precompile_old
timeout 120 .gpu/tests/nvrtc_sm90 --ignored --test-threads=1 --nocapture >"$OUT/direct.txt" 2>&1
echo "nvrtc_sm90 rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/direct.txt")"; grep -m5 -E "FAIL|panicked" "$OUT/direct.txt"
timeout 150 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
S="--shape 50257x8192x768 --shape 50257x512x768 --shape 4097x4096x4096 --shape 1001x776x1032 --shape 127x4095x4096 --shape 50304x8192x768"
bench odd-d $S --workspace-mib 0
bench_old odd-d-main $S --workspace-mib 0 --no-cublas
(cd "$OUT" && tar czf tests.tgz direct.txt matmul.txt && rm -f direct.txt matmul.txt)
