#!/usr/bin/env bash
# Session 25 (~250 s): random-21d's / random-k8's worst large shapes (0.62-0.79x cuBLASLt in `24j`,
# every one with rows off the L2's 128-byte lines: k*2 mod 128 = 16-112). 2944x544x6480 ran 56.0 us
# on 128x128 c1x1_re (model 39.5, cuBLASLt 36.7). Every heuristic candidate timed (--sweep, with
# cuBLASLt), then clusters of 2 and 2 x 2 forced, and Nsight Compute's L2 requests / sectors of both
# libraries' kernels on two of them (and cuBLASLt's kernel names).
#   Predicted: cuBLASLt runs clusters (2x1 / 1x2) there with fewer L2 requests per byte; our
#   clustered candidates 10-25% faster than the model's unclustered picks.
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session25b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile _bf16_bf16_tn_,_bf16_bf16_tt_ >/dev/null; echo "precompile ${SECONDS}s"
TN="--shape 2944x544x6480 --shape 2232x288x4256 --shape 4888x832x4528 --shape 3688x1336x4584 --shape 1032x5608x3592 --shape 2560x456x2776 --shape 416x3696x1832 --shape 1000x344x11120"
timeout 200 "$B" --sweep --iters 20 --warmup 3 --check none $TN >"$OUT/sweep-tn.txt" 2>&1; echo "== sweep tn rc=$? ${SECONDS}s"
timeout 60 "$B" --sweep --iters 20 --warmup 3 --check none --layout TT --shape 7944x640x8520 --shape 4888x832x4528 >"$OUT/sweep-tt.txt" 2>&1; echo "== sweep tt rc=$? ${SECONDS}s"
for c in c2x1 c2x2 c1x2 c1x4; do
    DEEPGEMM_VARIANT=$c timeout 100 "$B" --sweep --no-cublas --iters 20 --warmup 3 --check none $TN >"$OUT/sweep-tn-$c.txt" 2>&1
    echo "== sweep $c rc=$? ${SECONDS}s"
done
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for s in 2944x544x6480 4888x832x4528; do
    timeout 90 "$NCU" --clock-control none --metrics gpu__time_duration.sum,lts__t_sectors.sum,lts__t_requests.sum,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y \
        "$B" --shape $s --iters 1 --warmup 0 --check none >"$OUT/ncu-$s.txt" 2>&1
    echo "=== ncu $s rc=$?"
    grep -E "^\s+[a-zA-Z_].*\(|gpu__time|lts__|launch__" "$OUT/ncu-$s.txt" | grep -v -i "memset\|fill\|flush" | sed -e 's/  */ /g' | cut -c1-160 | tail -24
done
for f in "$OUT"/sweep-*.txt; do echo "-- $(basename $f)"; grep -E "sweep #|^[0-9]+x" "$f" | sed -e 's/dg_sm90_bf16_bf16_t[nt]_//' -e 's/(vs the timed.*//' | awk '{print $0}' | cut -c1-110 | head -80; done > "$OUT/summary.txt"
finish
