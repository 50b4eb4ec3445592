#!/usr/bin/env bash
# Session 66 (~2 min): where a tiny GEMM's ~0.8 us behind cuBLASLt goes (tiny-66 0.89x flushed,
# 0.95x in chains, 66b). (1) The tiny set with programmatic dependent launch off
# (DEEPGEMM_PDL=0) against on, two rounds each, cuBLASLt in every run: predicted no difference
# flushed (the memset before each sample is not a PDL primary); if the attribute itself delays
# the launch, PDL=0 is faster. (2) Nsight Compute's kernel durations (gpu__time_duration) of
# both libraries on four tiny shapes: if deepgemm's kernel alone is as short as cuBLASLt's, the
# difference is in the launch, not the kernel.
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests      there: timeout 400 bash scripts/gpu-session66d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi -L
"$B" --precompile "sm90_bf16_bf16_tn_m128n16k128_s5_c1x1,sm90_bf16_bf16_tn_m128n16k64_s11_c1x1_ks2,sm90_bf16_bf16_tn_m128n32k128_s5_c1x1,sm90_bf16_bf16_tn_m128n64k64_s8_c1x1,sm90_bf16_bf16_tn_m64n128k64_s8_c1x1,sm90_bf16_bf16_tn_m64n64k128_s6_c1x1_w1" >/dev/null; echo "precompile ${SECONDS}s"
T=.gpu/shapes/tiny-66.txt
for r in 1 2; do
    bench tiny-pdl1-$r --shapes $T --iters 100
    DEEPGEMM_PDL=0 bench tiny-pdl0-$r --shapes $T --iters 100
done
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for s in 8x8x8 64x64x64 128x128x128 256x256x256 512x512x512; do
    timeout 60 "$NCU" --clock-control none --metrics gpu__time_duration.sum,sm__cycles_elapsed.max \
        "$B" --shape $s --iters 3 --warmup 1 --check none >"$OUT/ncu-$s.txt" 2>&1
    echo "ncu $s rc=$? ${SECONDS}s"
    grep -E "^  [a-zA-Z_].*\(|gpu__time_duration|sm__cycles" "$OUT/ncu-$s.txt" | sed -e 's/  */ /g' | cut -c1-150 | tail -16
done
finish
