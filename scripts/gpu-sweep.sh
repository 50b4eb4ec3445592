#!/usr/bin/env bash
# GPU call for cost-model calibration: every heuristic candidate timed (`--sweep`, the model's
# estimate next to the measurement) on the calibration shapes and the wave set (model's choice,
# then Stream-K forced and data-parallel forced, so each kernel's two schedules can be
# compared), and the pack kernels' durations at 4097^3 under Nsight Compute.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-sweep.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
B=.gpu/deepgemm-bench
SECONDS=0
run() { # label, env..., -- bench args
    local label=$1; shift
    echo "== $label" | tee -a "$OUT/sweep.txt"
    env "$@" >>"$OUT/sweep.txt" 2>&1
    echo "   rc=$? ${SECONDS}s"
}
run "calibration shapes, model's choice" $B --shapes .gpu/shapes/sweep.txt --sweep --iters 20 --warmup 3 --check sample
run "waves, model's choice" $B --shapes .gpu/shapes/waves.txt --sweep --iters 20 --warmup 3 --check none
run "waves, Stream-K forced" DEEPGEMM_DECOMPOSITION=streamk $B --shapes .gpu/shapes/waves.txt --sweep --iters 20 --warmup 3 --check none
run "waves, data-parallel forced" DEEPGEMM_DECOMPOSITION=dp $B --shapes .gpu/shapes/waves.txt --sweep --iters 20 --warmup 3 --check none
run "4097^3 160 MiB" $B --shape 4097x4097x4097 --workspace-mib 160 --sweep --iters 20 --warmup 3 --check none
if [ -n "${PROFILE_PACK:-1}" ]; then
    NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
    "$NCU" --clock-control none -k regex:dg_ -c 6 --section SpeedOfLight \
        $B --shape 4097x4097x4097 --workspace-mib 160 --iters 1 --warmup 0 --no-cublas --check none \
        >"$OUT/ncu-pack.txt" 2>&1
    echo "ncu rc=$? ${SECONDS}s"
    grep -E "dg_|Duration|DRAM Throughput|Memory Throughput" "$OUT/ncu-pack.txt" | head -40
fi
grep -E "^== |sweep #|^[0-9]+x[0-9]+x[0-9]+ " "$OUT/sweep.txt" | head -300
