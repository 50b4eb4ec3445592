#!/usr/bin/env bash
# First GPU call of session 5: the transposed-orientation planning (tf32 TT as NN swapped,
# 3000x1000-like shapes on the better-quantising orientation) against the reference; what
# cuBLASLt launches on the shapes where deepgemm trails (Nsight Compute: kernel name, grid,
# cluster, registers, duration); the SM clock and power while 8192^3 and 4096^3 run; and the
# set-A figures not re-run since session 3 (fp16, bias+GELU, NN/TT/NT), tf32 TT.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session5a.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if [ -z "${SKIP_TESTS:-}" ]; then
    timeout 200 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture transposed_orientation narrow_and_swapped shapes_types >"$OUT/matmul.txt" 2>&1
    echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
    grep -E "^group .*passed" "$OUT/matmul.txt"
fi
[ -n "${ONLY_TESTS:-}" ] && exit 0
# The GPU's clocks and power while deepgemm and cuBLASLt run 8192^3 then 4096^3 (bench order).
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu,clocks_event_reasons.active --format=csv,noheader -lms 100 >"$OUT/smi.csv" 2>&1 &
SMI=$!
$B --shape 8192x8192x8192 --iters 100 >"$OUT/power-8192.txt" 2>&1
echo "== 4096" >>"$OUT/smi.csv"
$B --shape 4096x4096x4096 --iters 200 >"$OUT/power-4096.txt" 2>&1
kill $SMI
echo "power ${SECONDS}s"
# Set A completion.
$B --shapes .gpu/shapes/set-a.txt --dtype fp16 >"$OUT/set-a-fp16.txt" 2>&1
$B --shape 4096x14336x4096 --epilogue gelu_bias --shape 4096x4096x4096 >"$OUT/gelu-bias.txt" 2>&1
for l in NN TT NT; do $B --layout $l --shape 4096x4096x4096 --shape 8192x8192x8192 >"$OUT/layout-$l.txt" 2>&1; done
$B --dtype tf32 --out fp32 --layout TT --shape 4096x4096x4096 --shape 8192x8192x8192 --shape 2048x2048x2048 >"$OUT/tf32-tt.txt" 2>&1
for l in TN NN; do $B --layout $l --sweep --shape 1000x3000x4000 --shape 3000x1000x4000 >"$OUT/orient-$l.txt" 2>&1; done
echo "benches ${SECONDS}s"
# What cuBLASLt runs (its kernels only; the bench's own kernels are dg_*).
for s in 4096x4096x4096 8192x8192x8192 4096x2112x7168 4096x24576x1536 8192x8192x1024 1000x3000x4000 \
         1664x1664x8192 2176x2176x8192 2432x1792x8192 64x2112x7168 64x4096x4096 16x4096x4096 1x4096x4096 127x4095x4096; do
    echo "== $s" >>"$OUT/census.txt"
    "$NCU" --clock-control none -k regex:'nvjet|xmma|gemm|cutlass|splitK|reduce|Kernel' -c 4 --section LaunchStats --metrics gpu__time_duration.sum \
        $B --shape $s --iters 1 --warmup 0 --check none >>"$OUT/census.txt" 2>&1
done
"$NCU" --clock-control none -k regex:'nvjet|xmma|gemm|cutlass|splitK|reduce|Kernel' -c 4 --section LaunchStats --metrics gpu__time_duration.sum \
    $B --shape 4096x14336x4096 --epilogue gelu_bias --iters 1 --warmup 0 --check none >>"$OUT/census.txt" 2>&1
echo "census ${SECONDS}s"
grep -E "^== |^  [a-zA-Z_].*\(|Grid Size|Cluster Size|Registers Per|Dynamic Shared|gpu__time_duration" "$OUT/census.txt" | grep -v "^  dg_" | sed -e 's/  */ /g' | cut -c1-150 | head -150
for f in set-a-fp16 gelu-bias layout-NN layout-TT layout-NT tf32-tt orient-TN orient-NN power-8192 power-4096; do
    echo "== $f"; grep -E "^[0-9]+x[0-9]+x[0-9]+ |^ratio|^\[|rank|^ +[0-9#]" "$OUT/$f.txt" | cut -c1-170 | head -40
done
awk -F, 'NR%5==1' "$OUT/smi.csv" | head -80
echo "done ${SECONDS}s"
