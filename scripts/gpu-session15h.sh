#!/usr/bin/env bash
# Session 15, main's final planner (slab plans spread over the workspace range, up to 16):
# the slab group of gpu_pack and the slab plans at 32 MiB against cuBLASLt.
# Predicted: the group passes; NN 768x8192x50257 takes slab1x32 again (~3.1 ms, as 15d) and
# 4097^3 slab2x3 (~340 us).
#     here:  bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session15h.sh  (.gpu carried, ~150 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
timeout 100 .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture too_little_workspace_for >"$OUT/pack.txt" 2>&1
echo "gpu_pack rc=$? ${SECONDS}s: $(groups "$OUT/pack.txt")"
bench ws32 --shape 4097x4097x4097 --iters 10 --warmup 2 --workspace-mib 32
bench nn-ws32 --layout NN --shape 768x8192x50257 --iters 5 --warmup 1 --workspace-mib 32
finish
