#!/usr/bin/env bash
# GPU call: Nsight Compute warp-stall sampling per SASS instruction of one deepgemm launch
# (where the warps wait), as CSV in $OUT/source.csv, plus the top stalled instructions.
#     bash scripts/gpu-ncu-source.sh SHAPE [bench args...]   (DEEPGEMM_* env passes through)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
shape=$1; shift
"$NCU" --clock-control none -k regex:dg_sm90 -c 1 --section SourceCounters --section WarpStateStats \
    --import-source no -f -o /tmp/src-report \
    .gpu/deepgemm-bench --shape "$shape" --iters 1 --warmup 0 --no-cublas --check none "$@" >"$OUT/ncu-run.txt" 2>&1
echo "ncu rc=$?"; grep -E "heuristic" "$OUT/ncu-run.txt" | cut -c1-200
"$NCU" -i /tmp/src-report.ncu-rep --page source --csv --print-source sass >"$OUT/source.csv" 2>"$OUT/source.err"
echo "csv rc=$? lines $(wc -l <"$OUT/source.csv")"
head -2 "$OUT/source.csv" | cut -c1-600
