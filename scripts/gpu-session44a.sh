#!/usr/bin/env bash
# Session 44, call a (~1 min): where the warp stalls sit, per SASS instruction (Nsight Compute's
# sampled stall reasons, the source page), for deepgemm's solo 64x64 and cuBLASLt's 64x64 at
# 928x368x3968 TN (`43h` gave the kernel-wide ratios only). Writes $OUT/src-<mode>.csv.
#     there: bash scripts/gpu-session44a.sh   (any pack with the default plans)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
"$NCU" --version | tail -1
for mode in solo default; do
    if [ $mode = solo ]; then export DEEPGEMM_SOLO=1 DEEPGEMM_VARIANT=m64n64k64_s5; fi
    timeout 120 "$NCU" --clock-control none -k 'regex:^(dg_|nvjet)' -c 2 --section SourceCounters \
        --section WarpStateStats --import-source no -o "$OUT/rep-$mode" \
        .gpu/deepgemm-bench --shape 928x368x3968 --layout TN --iters 1 --warmup 0 --check none >"$OUT/log-$mode.txt" 2>&1
    echo "== ncu $mode rc=$? ${SECONDS}s"
    unset DEEPGEMM_SOLO DEEPGEMM_VARIANT
    for k in dg_ nvjet; do
        timeout 120 "$NCU" -i "$OUT/rep-$mode.ncu-rep" -k "regex:^$k" --page source --print-source sass --csv \
            >"$OUT/src-$mode-$k.csv" 2>&1
        echo "== source $mode $k rc=$? $(wc -l <"$OUT/src-$mode-$k.csv") lines"
    done
done
head -3 "$OUT/src-solo-dg_.csv" | cut -c1-600
finish
