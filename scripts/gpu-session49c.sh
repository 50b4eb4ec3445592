#!/usr/bin/env bash
# Session 49, calls c and d (~6 min; the code measured is in commits ecdff9e (c: granules
# from registers) and its successor (d: bulk copies), both slower and reverted, see
# BENCHMARKS.md session 49): a column-major 16-bit D whose columns are not 16 bytes apart
# (odd leading dimension: PyTorch's logits at vocabulary 50257, 4095^3, 4097x4096x4096, D's ld
# + 1) stored as 16-byte granules from the TMA-store epilogue's staging (kernels/sm90/store.cuh
# `store_granules`, SM90_FLAG_D_GRANULES), built only under DEEPGEMM_NVRTC_DEFINES=DG_D_GRANULES
# (in every instantiation it spilled at 200-256 wide), against the general epilogue's stores
# down the columns (the default build), same binary, alternating.
#   1. gpu_matmul odd_d_in_place (new group: odd D in place, beta 0 and 0.5, every epilogue,
#      batches, device scalars) under both builds, and shapes_types_transposes (random pads)
#      under the granule build. Predicted: all pass.
#   2. The bench's check (full float64 reference up to 1024^3, else sample + cuBLASLt) on odd-D
#      shapes with epilogues under the granule build. Predicted: all PASS.
#   3. Timing, 2 rounds alternating (default, granules), cuBLASLt in the run. Predicted:
#      50257x8192x768 1240-1310 -> ~1000 us (aligned 50304: ~900), 4096^3 with D's ld 4097
#      ~190 -> ~180 (aligned 176), 4095^3 236 -> ~228, 4096^3 (aligned, control) unchanged.
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 580 bash scripts/gpu-session49c.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
G=DG_D_GRANULES
NAMES=bf16_bf16_tn_m128n256k64_s4_c1x1,bf16_bf16_tn_m128n184k64_s4_c1x1,bf16_bf16_tn_m128n168k64_s6_c1x1_re,f16_f16_tn_m128n192k64_s4_c1x1,bf16_bf16_tn_m64n128k64_s8_c1x1
"$B" --precompile "$NAMES" >/dev/null &
DEEPGEMM_NVRTC_DEFINES=$G "$B" --precompile "$NAMES" >/dev/null &
wait
echo "precompile ${SECONDS}s"

# 1. Correctness, the grid.
DEEPGEMM_NVRTC_DEFINES=$G timeout 150 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture odd_d_in_place >"$OUT/grid-odd-d-granules.txt" 2>&1
echo "== grid odd_d granules rc=$? ${SECONDS}s: $(groups "$OUT/grid-odd-d-granules.txt")"
# (the default build's odd_d_in_place: 24 / 24 in 49c)

# 2. The bench's check under the granule build.
chk() { local name=$1; shift; DEEPGEMM_NVRTC_DEFINES=$G bench "chk-$name" --iters 3 --warmup 1 "$@"; grep -E "PASS|FAIL" "$OUT/chk-$name.txt" | head -3; }
chk a --shape 1003x1001x512 --pad 0,0,0,1
chk b --shape 1003x1001x512 --pad 0,0,0,3 --epilogue gelu_bias
chk c --shape 2000x1500x1024 --pad 0,0,0,1 --dtype fp16 --epilogue gelu
chk d --shape 3001x2003x777 --epilogue bias --batch 2 --check sample
chk e --shape 1664x1664x8192 --pad 0,0,0,1 --check sample

# 3. Timing.
for r in 1 2; do
    bench def-t1-$r --shape 50257x8192x768 --shape 50257x2048x768 --shape 4097x4096x4096 --shape 3001x2003x4096 --shape 4096x4096x4096
    DEEPGEMM_NVRTC_DEFINES=$G bench gr-t1-$r --shape 50257x8192x768 --shape 50257x2048x768 --shape 4097x4096x4096 --shape 3001x2003x4096 --shape 4096x4096x4096
    bench def-t2-$r --pad 0,0,0,1 --shape 4096x4096x4096 --shape 1664x1664x8192
    DEEPGEMM_NVRTC_DEFINES=$G bench gr-t2-$r --pad 0,0,0,1 --shape 4096x4096x4096 --shape 1664x1664x8192
    bench def-t3-$r --workspace-mib 160 --shape 4095x4095x4095
    DEEPGEMM_NVRTC_DEFINES=$G bench gr-t3-$r --workspace-mib 160 --shape 4095x4095x4095
done

