#!/usr/bin/env bash
# Session 32, call d (~200 s; every production kernel carried, and the traced ones below).
# Main's final build: `d_pays` refitted (32c verified its four choices), the producer's trace
# marks 7-10 and the DG_PARAM_TOUCH diagnostic; the SASS of every production variant is
# main's `1bdf4f6`'s (compared here, all 564), so 31c's correctness runs stand for them.
#   1. Against cuBLASLt, the cliffs at 160 and 32 MiB (scripts/shapes/cliffs.txt). Predicted:
#      4097^3 and 4100^3 2-3% faster than session 30's with 160 MiB (the copy of D), the rest
#      as then; 32 MiB unchanged (slab plans).
#   2. Against cuBLASLt, D at an odd leading dimension: PyTorch's logits at vocabulary 50257
#      (50257x8192x768), 4096^3 and 1264x1032x8416 with D's ld + 1 (160 MiB).
#   3. The prologue: DG_TRACE (marks 9 before A's tensor-map prefetch, 10 between A's and B's,
#      7 after both) at 128^3, 512^3, 4096^3, with DG_PARAM_TOUCH as well; and Nsight
#      Compute's warp-stall samples per SASS instruction of one 512^3 launch ($OUT/source.csv).
#     here:  bash scripts/gpu-pack.sh; bash scripts/gpu-cubins-defines.sh \
#              target/release/deepgemm-bench .gpu/cubins.txz "-:all" \
#              "DG_TRACE:m128n32k64_s10_c1x1,m128n256k64_s4_c1x1" \
#              "DG_TRACE,DG_PARAM_TOUCH:m128n32k64_s10_c1x1,m128n256k64_s4_c1x1"
#     there: bash scripts/gpu-session32d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
precompile_all
bench cliffs-160 --workspace-mib 160 --check sample --shapes $S/cliffs.txt
bench cliffs-32 --check sample --shapes $S/cliffs.txt
bench odd-d-vocab --workspace-mib 160 --check sample --shape 50257x8192x768
bench odd-d --workspace-mib 160 --check sample --pad 0,0,0,1 --shape 4096x4096x4096 --shape 1264x1032x8416
for s in 128x128x128 512x512x512 4096x4096x4096; do
    trace "main $s" --shape $s
    TRACE_DEFINES=DG_PARAM_TOUCH trace "touch $s" --shape $s
done
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
timeout 120 "$NCU" --clock-control none -k regex:dg_sm90 -c 1 --section SourceCounters --section WarpStateStats \
    --import-source no -f -o /tmp/src-report \
    .gpu/deepgemm-bench --shape 512x512x512 --iters 1 --warmup 0 --no-cublas --check none >"$OUT/ncu-run.txt" 2>&1
echo "ncu rc=$? ${SECONDS}s"
"$NCU" -i /tmp/src-report.ncu-rep --page source --csv --print-source sass >"$OUT/source.csv" 2>"$OUT/source.err"
echo "csv rc=$? lines $(wc -l <"$OUT/source.csv")"
finish source.csv
