#!/usr/bin/env bash
# Second GPU call of session 5: the fill tiles (128 x {96..240} between the powers of two).
# Their direct kernel cases, the gpu_matmul grid with the model's choices (which now include
# them) and under forced Stream-K, then the wave set, set A and the cliffs, with sweeps of
# every candidate on the shapes the fill widths are for (the model's interpolated
# efficiencies against measurement).
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session5b.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
if [ -z "${SKIP_TESTS:-}" ]; then
    DEEPGEMM_SM90_VARIANTS=n96k,n112k,n144k,n160k,n176k,n208k,n224k,n240k timeout 150 .gpu/tests/nvrtc_sm90 --ignored --nocapture --test-threads=1 sm90_kernel_matches_reference_on_gpu >"$OUT/sm90.txt" 2>&1
    echo "nvrtc_sm90 fill rc=$? ${SECONDS}s: $(grep -E 'test result' "$OUT/sm90.txt")"
    grep -E "FAIL|panicked|max scaled err [1-9]" "$OUT/sm90.txt" | head -5 | cut -c1-250
    timeout 250 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
    echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
    DEEPGEMM_DECOMPOSITION=streamk timeout 120 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture large alpha_beta epilogues repeated >"$OUT/matmul-sk.txt" 2>&1
    echo "gpu_matmul streamk rc=$? ${SECONDS}s: $(groups "$OUT/matmul-sk.txt")"
    (cd "$OUT" && tar czf tests.tgz sm90.txt matmul*.txt && rm -f sm90.txt matmul*.txt)
fi
[ -n "${ONLY_TESTS:-}" ] && exit 0
for set in waves set-a; do
    $B --shapes .gpu/shapes/$set.txt >"$OUT/$set.txt" 2>&1
    echo "$set rc=$? ${SECONDS}s"
done
$B --shapes .gpu/shapes/cliffs.txt >"$OUT/cliffs.txt" 2>&1
$B --sweep --shape 1664x1664x8192 --shape 4096x2112x7168 --shape 2176x2176x8192 --shape 2432x1792x8192 --shape 3000x1000x4000 >"$OUT/sweep.txt" 2>&1
$B --layout TT --sweep --shape 1000x3000x4000 --shape 3000x1000x4000 >"$OUT/sweep-tt.txt" 2>&1
$B --layout NN --shape 3000x1000x4000 --shape 1000x3000x4000 >"$OUT/nn.txt" 2>&1
echo "benches ${SECONDS}s"
for f in waves set-a cliffs nn; do
    echo "== $f"; grep -E "^[0-9]+x[0-9]+x[0-9]+ |^ratio" "$OUT/$f.txt" | awk '{print $1, $2, $5, $6, $7, $8, $9, $12}'
    grep -E "^\[" "$OUT/$f.txt" | sed -e 's/.*heuristic [0-9.]* ms, //' -e 's/); check.*//' | tr '\n' ' '; echo
done
for f in sweep sweep-tt; do
    echo "== $f"; grep -E "^\[|sweep #" "$OUT/$f.txt" | sed -e 's/(vs the timed.*//' -e 's/deepgemm first call.*heuristic [0-9.]* ms, //' | cut -c1-130
    grep -E "^[0-9]+x[0-9]+x[0-9]+ " "$OUT/$f.txt" | awk '{print $1, $2, $5, $6, $7, $8, $9}'
done
echo "done ${SECONDS}s"
