#!/usr/bin/env bash
# Session 25 (~200 s), main's build (dc2fac1: the library of 6b9f19f).
#   1. Issue 4's wave set at main's kernels (last timed in sessions 16-17): Stream-K against
#      data-parallel on the same kernel (forced), for 128x256, 128x248 and 128x128; then the set
#      against cuBLASLt with the model's plans. Predicted: as sessions 13-16 (132k+1 shapes
#      1.2-1.7x on 128x256, 3200^2 ~1.10 on 128x248), cuBLASLt ratios 0.94-1.04.
#   2. Why rows off the L2's lines cost deepgemm and not cuBLASLt (`25b`: 2944x544x6480, k*2 = 32
#      mod 128, deepgemm 51.9 us / 4.44M L2 requests, cuBLASLt 32.4 us / 2.49M): Nsight Compute
#      of both libraries at k = 6480 and at k = 6528 (lines aligned), deepgemm on main's plan and
#      forced onto 128x128 unclustered. Predicted: cuBLASLt within ~5% at both k; deepgemm's
#      128x128 ~1.5x slower at 6480 than at 6528 with the same L2 bytes.
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session25e.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile m128n256k64_s4_c1x1,m128n248k64_s4_c1x1,m128n128k64_s6_c1x1,_bf16_bf16_tn_m128n1 >/dev/null; echo "precompile ${SECONDS}s"
for v in m128n256k64_s4_c1x1 m128n248k64_s4_c1x1 m128n128k64_s6_c1x1; do
    for dec in dp streamk; do
        DEEPGEMM_VARIANT=$v DEEPGEMM_DECOMPOSITION=$dec bench "waves-$v-$dec" --no-cublas --check none --shapes .gpu/shapes/waves.txt
    done
done
bench waves-cublas --shapes .gpu/shapes/waves.txt
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
M=gpu__time_duration.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__m_xbar2l1tex_read_bytes.sum,dram__bytes_read.sum,lts__t_sector_op_read_hit_rate.pct,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg
for s in 2944x544x6480 2944x544x6528; do
    for v in auto m128n128k64_s6_c1x1; do
        if [ $v = auto ]; then unset DEEPGEMM_VARIANT; else export DEEPGEMM_VARIANT=$v; fi
        timeout 90 "$NCU" --clock-control none --metrics $M "$B" --shape $s --iters 1 --warmup 0 --check none >"$OUT/ncu-$s-$v.txt" 2>&1
        echo "=== ncu $s $v rc=$?"
        grep -E "^\s+[a-zA-Z_].*\(|gpu__time|lts__|l1tex__|dram__|sm__" "$OUT/ncu-$s-$v.txt" | grep -v -i "memset\|fill\|flush" | sed -e 's/  */ /g' | cut -c1-130 | tail -22
    done
done
unset DEEPGEMM_VARIANT
finish
