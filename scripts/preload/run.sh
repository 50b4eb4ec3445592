#!/usr/bin/env bash
# The LD_PRELOAD check on the GPU machine (issue 5): runs scripts/preload/torch_check.py, an
# unmodified PyTorch program, four times and compares:
#   1. cuBLAS            no preload: saves every output and timing (reference);
#   2. preload, cold     LD_PRELOAD=libdeepgemm_preload.so, empty deepgemm kernel cache
#                        (end-to-end time includes NVRTC compiling the kernels);
#   3. preload, warm     the same with the cache filled by run 2;
#   4. preload, off      LD_PRELOAD with DEEPGEMM_PRELOAD=0: every call forwarded, so the
#                        timings show what the interposer itself costs a forwarded call.
# Runs 2-4 compare each output with run 1's within its dtype's tolerance and print a table;
# runs 2-3 print the substitution summary (DEEPGEMM_PRELOAD_LOG=summary), which must show
# at least 90% of the supported-type GEMM calls substituted.
#
#     bash scripts/preload/run.sh /path/to/libdeepgemm_preload.so
#
# Results go to $OUT (./out when unset): preload-*.log, preload-*.json, preload-summary-*.txt,
# preload-report.txt (the final table). Exit status non-zero when an output is out of
# tolerance, the substitution rate is under 90%, or a run failed.
set -uo pipefail
if [ $# -lt 1 ] || [ ! -f "$1" ]; then
    echo "usage: bash scripts/preload/run.sh /path/to/libdeepgemm_preload.so" >&2
    exit 64
fi
LIB=$(realpath "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
PY=${PYTHON:-python3}
# cuBLAS 13 is in /usr/local/cuda/lib64 there, outside the loader cache: the preload's last
# resort (dlopen by name) and any program that links it plainly need it on the path.
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
CACHE=${DEEPGEMM_CACHE_DIR:-${TMPDIR:-/tmp}/deepgemm-preload-cache}
REF=${TMPDIR:-/tmp}/deepgemm-preload-reference.pt
MIN_RATE=90
status=0
report=()

# run LABEL [VAR=value...]: one torch_check.py run, timed end to end (process start to exit).
run() {
    local label=$1
    shift
    local mode=compare
    [ "$label" = cublas ] && mode=reference
    local summary="$OUT/preload-summary-$label.txt"
    rm -f "$summary"
    echo "== $label: $* torch_check.py --mode $mode" | tee "$OUT/preload-$label.log"
    local t0 t1 rc
    t0=$(date +%s.%N)
    env -u LD_PRELOAD -u DEEPGEMM_PRELOAD -u DEEPGEMM_PRELOAD_LOG DEEPGEMM_CACHE_DIR="$CACHE" DEEPGEMM_PRELOAD_LOG_FILE="$summary" "$@" \
        "$PY" "$HERE/torch_check.py" --mode "$mode" --data "$REF" \
        --json "$OUT/preload-$label.json" 2>&1 | tee -a "$OUT/preload-$label.log"
    rc=${PIPESTATUS[0]}
    t1=$(date +%s.%N)
    local wall
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    [ $rc -ne 0 ] && status=1
    local rate="-"
    if [ -s "$summary" ]; then
        cat "$summary" | tee -a "$OUT/preload-$label.log"
        # The process that made the GEMMs wrote the last total line.
        rate=$(grep -o 'substituted_of_supported=[0-9.]*' "$summary" | tail -n 1 | cut -d= -f2)
    fi
    report+=("$(printf '%-14s %8s s  exit %-3s substituted of supported-type calls: %s%%' \
        "$label" "$wall" "$rc" "${rate:--}")")
    LAST_RATE=${rate:-0}
}

echo "== $(date -u +%FT%TZ) $(hostname); preload $LIB; OUT=$OUT"
nvidia-smi -L || echo "nvidia-smi failed"
"$PY" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'

rm -rf "$CACHE"
run cublas
if [ ! -s "$REF" ]; then
    echo "the reference run wrote no $REF; stopping" >&2
    exit 1
fi
run preload-cold LD_PRELOAD="$LIB" DEEPGEMM_PRELOAD_LOG=summary
cold_rate=$LAST_RATE
run preload-warm LD_PRELOAD="$LIB" DEEPGEMM_PRELOAD_LOG=summary
warm_rate=$LAST_RATE
run preload-off LD_PRELOAD="$LIB" DEEPGEMM_PRELOAD=0 DEEPGEMM_PRELOAD_LOG=summary
rm -f "$REF"

for r in "$cold_rate" "$warm_rate"; do
    if ! awk -v r="$r" -v m="$MIN_RATE" 'BEGIN { exit !(r + 0 >= m) }'; then
        echo "substitution rate $r% is under $MIN_RATE%"
        status=1
    fi
done

{
    echo
    echo "================ preload: end to end (process wall time) ================"
    printf '%s\n' "${report[@]}"
    echo
    echo "---- per-case table (warm run) ----"
    table() { awk '/^deepgemm-preload:/ {exit} /^case +cuBLAS ms/ {t = 1} t {print}' "$1"; }
    table "$OUT/preload-preload-warm.log"
    echo "---- per-case table (preload off: forwarding only) ----"
    table "$OUT/preload-preload-off.log"
    echo "---- summary (warm run) ----"
    cat "$OUT/preload-summary-preload-warm.txt" 2>/dev/null
    echo "overall: $([ $status -eq 0 ] && echo PASS || echo FAIL)"
} | tee "$OUT/preload-report.txt"
exit $status
