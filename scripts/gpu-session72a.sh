#!/usr/bin/env bash
# Session 72, first call (~9.5 min). (1) One-wave TN shapes (underwave-sk-72: 1000x3000x4000,
# issue 4's 0.98x, and seven like it) swept twice, interleaved with cuBLASLt: the heuristic's
# candidates (data-parallel 128 x 160-224), then under DEEPGEMM_DECOMPOSITION=streamk (128 x 256
# and other wide tiles over all 132 SMs, modelled 5-40% slower by fixup constants sessions 13 and
# 16 measured 10-20 us high where a CTA holds about a tile). Predicted first: 1000x3000x4000's
# 128 x 256 sk96x132 ~34-36 us against ~38.5 for its data-parallel 128 x 192; after the kept
# sweeps' verdict (scripts/sk-subwave-regret.py: such plans ran a median 1.07x the data-parallel
# ones' time), ~36-41 us, most of the eight no faster than their default. (2) Nsight Compute's view of
# cuBLASLt's kernels on lt-gap-72. (3) Session 71's owed check (scripts/gpu-session71d.sh): the
# column split on by default against DEEPGEMM_COLSPLIT=0 on the wave set. (4) gpu_matmul: two groups
# with the column split forced (a row-major D, device-pointer scalars), then the default groups.
# (A cheaper Stream-K fixup charge where each tile is shared by two CTAs, which this call first
# timed out of sample, was refuted offline before any device time: BENCHMARKS.md, session 72.)
#     here:  CUBINS="_cs,$(paste -sd, scripts/shapes/names-72a.txt),bf16_bf16_tn_m128n256k64_s4_c1x1,bf16_bf16_tn_m128n168k64_s5_c1x1,bf16_bf16_tn_m128n152k64_s5_c1x1" bash scripts/gpu-pack.sh
#            find .gpu/tests -type f ! -name gpu_matmul -delete   (~10 MB carried; the kernels
#            these plans name compiled here, ~4 min on 2 cores: nothing compiles there)
#     there: timeout 590 bash scripts/gpu-session72a.sh (DEADLINE=S for a shorter call)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
# Steps in order of worth, each only while DEADLINE (seconds, default 575) leaves it room: the
# device is scarce and a call may be cut to what budget is left.
DEADLINE=${DEADLINE:-575}
have() { [ $((SECONDS + $1)) -lt "$DEADLINE" ]; }
nvidia-smi -L
S=.gpu/shapes/underwave-sk-72.txt
"$B" --precompile "_cs,$(paste -sd, .gpu/shapes/names-72a.txt),bf16_bf16_tn_m128n256k64_s4_c1x1,bf16_bf16_tn_m128n168k64_s5_c1x1,bf16_bf16_tn_m128n152k64_s5_c1x1" >/dev/null; echo "precompile ${SECONDS}s"
sweep uw-default 80 --interleave --layout TN --shapes $S
DEEPGEMM_DECOMPOSITION=streamk sweep uw-streamk 80 --interleave --layout TN --shapes $S
for f in "$OUT"/sweep-uw-*.txt; do echo "== $f"; grep -E "sweep #|interleaved|^\[" "$f" | sed -e 's/(vs the timed.*//' -e 's/deepgemm first call.*heuristic[^,]*, //' | cut -c1-130; done
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if have 100; then
    timeout 90 "$NCU" --clock-control none -k "regex:nvjet|cutlass|gemm|xmma|splitK" --section LaunchStats \
        --metrics gpu__time_duration.sum "$B" --layout TN --shapes .gpu/shapes/lt-gap-72.txt \
        --iters 1 --warmup 0 --check none >"$OUT/ncu-lt.txt" 2>&1
    echo "ncu rc=$? ${SECONDS}s"
    grep -E "^  [a-zA-Z_].*\(|gpu__time|Cluster Size|Grid Size" "$OUT/ncu-lt.txt" | grep -v "dg_" | sed -e 's/  */ /g' | cut -c1-110 | head -80
fi
printf '2432x1792x8192\n1664x1664x8192\n2176x2176x8192\n3200x3200x8192\n6784x1280x8192\n' >/tmp/w71.txt
for ((r = 1; r <= 2; r++)); do
    have 40 || break
    bench W_new-$r --layout TN --shapes /tmp/w71.txt --check none --iters 30
    DEEPGEMM_COLSPLIT=0 bench W_old-$r --layout TN --shapes /tmp/w71.txt --check none --iters 30
done
python3 scripts/compare-runs.py "$OUT" "W_new-*" "W_old-*" 2>/dev/null | tail -8
# The column split forced where a review found it checked only on paper: a row-major D (TN computed
# transposed) and beta / alpha through device pointers.
DEEPGEMM_COLSPLIT=only matmul_groups cs $((SECONDS + 100)) transposed_orientation pointer_mode_device
matmul_groups def "$DEADLINE" shapes_types_transposes tiles_past_the_edges alpha_beta_in_place epilogues narrow_and_swapped orders_and_padding large_shapes
finish
