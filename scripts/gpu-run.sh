#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, what scripts/gpu-pack.sh packed:
#     bash .gpu/gpu-run.sh [what] [args...]
#   what = all (default): GPU tests, then the bench (default shapes + .gpu/shapes.txt,
#          and one bias+GELU shape)
#        = tests [filter...]   every .gpu/tests/* executable (args go to each harness)
#        = gpu_matmul [filter...] (or any one test executable's name)
#        = bench [bench args...]  deepgemm-bench with the given arguments (default set
#          + shape list when none)
# Results go to $OUT (./out when unset): gpu-tests.log, bench.log, bench.json,
# bench-epilogue.json. A short summary is printed last. Exit status non-zero when any
# test or check failed.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export DEEPGEMM_CACHE_DIR=${DEEPGEMM_CACHE_DIR:-/tmp/deepgemm-cache}
# Kernel caches carried from the development machine (gpu-pack.sh under CUBINS=...).
[ -f scripts/gpu-unpack.sh ] && . scripts/gpu-unpack.sh
# Seconds allowed for each test executable (the device tool stops a command at 10 min).
TEST_TIMEOUT=${DG_TEST_TIMEOUT:-420}
WHAT=${1:-all}
[ $# -gt 0 ] && shift

status=0
summary=()

echo "== $(date -u +%FT%TZ) $(hostname); OUT=$OUT; DEEPGEMM_CACHE_DIR=$DEEPGEMM_CACHE_DIR"
nvidia-smi -L || echo "nvidia-smi failed"

run_test_exe() { # name [harness args...]
    local name=$1
    shift
    local exe="$HERE/tests/$name"
    if [ ! -x "$exe" ]; then
        echo "no test executable $exe" | tee -a "$OUT/gpu-tests.log"
        status=1
        summary+=("$name: missing")
        return
    fi
    echo "== $name --ignored --test-threads=1 $*" | tee -a "$OUT/gpu-tests.log"
    timeout "$TEST_TIMEOUT" "$exe" --ignored --test-threads=1 --nocapture "$@" 2>&1 |
        tee -a "$OUT/gpu-tests.log"
    local rc=$?
    [ $rc -eq 124 ] && echo "$name: timed out after ${TEST_TIMEOUT}s" | tee -a "$OUT/gpu-tests.log"
    [ $rc -ne 0 ] && status=1
    summary+=("$name: exit $rc")
}

run_tests() {
    : >"$OUT/gpu-tests.log"
    local exe
    for exe in "$HERE"/tests/*; do
        run_test_exe "$(basename "$exe")" "$@"
    done
    # The skinny kernel is planned only under DEEPGEMM_SKINNY (read once a process): its
    # group runs the tile plans above, the kernel itself here (a review found it unrun).
    if [ $# -eq 0 ] && [ -x "$HERE/tests/gpu_matmul" ]; then
        DEEPGEMM_SKINNY=1 run_test_exe gpu_matmul --exact skinny_decode
    fi
}

run_bench() {
    local args=("$@")
    if [ ${#args[@]} -eq 0 ]; then
        args=(--shape 1024x1024x1024 --shape 4096x4096x4096 --shape 4097x4097x4097)
        [ -f "$HERE/shapes.txt" ] && args+=(--shapes "$HERE/shapes.txt")
    fi
    echo "== deepgemm-bench ${args[*]}" | tee "$OUT/bench.log"
    "$HERE/deepgemm-bench" "${args[@]}" --json "$OUT/bench.json" 2>&1 | tee -a "$OUT/bench.log"
    local rc=$?
    [ $rc -ne 0 ] && status=1
    summary+=("bench: exit $rc")
}

run_bench_epilogue() {
    local args=(--shape 4096x14336x4096 --epilogue gelu_bias)
    echo "== deepgemm-bench ${args[*]}" | tee -a "$OUT/bench.log"
    "$HERE/deepgemm-bench" "${args[@]}" --json "$OUT/bench-epilogue.json" 2>&1 |
        tee -a "$OUT/bench.log"
    local rc=$?
    [ $rc -ne 0 ] && status=1
    summary+=("bench (gelu_bias): exit $rc")
}

case "$WHAT" in
    all)
        run_tests
        run_bench
        run_bench_epilogue
        ;;
    tests) run_tests "$@" ;;
    bench) run_bench "$@" ;;
    gpu_*)
        : >"$OUT/gpu-tests.log"
        run_test_exe "$WHAT" "$@"
        ;;
    *)
        echo "usage: bash .gpu/gpu-run.sh [all|tests|bench|gpu_<suite>] [args...]" >&2
        exit 64
        ;;
esac

echo
echo "================ summary ================"
if [ -s "$OUT/gpu-tests.log" ]; then
    # Per-group lines ("group NAME: N passed, M failed (seed S)") and their total.
    grep -E '^group .*: [0-9]+ passed, [0-9]+ failed' "$OUT/gpu-tests.log"
    grep -E '^  FAIL ' "$OUT/gpu-tests.log" | head -n 20
    awk '/^group .*: [0-9]+ passed, [0-9]+ failed/ {
            for (i = 1; i <= NF; i++) { if ($i == "passed,") p += $(i-1); if ($i == "failed") f += $(i-1) }
         } END { printf "GPU test cases: %d passed, %d failed\n", p, f }' "$OUT/gpu-tests.log"
    grep -E '^test result:' "$OUT/gpu-tests.log"
fi
if [ -s "$OUT/bench.log" ]; then
    # The bench's table: from its header line to its "shapes:" total.
    awk '/^shape +layout/ {t = 1} t {print} /^[0-9]+ shapes:/ {t = 0}' "$OUT/bench.log"
fi
printf '%s\n' "${summary[@]}"
exit $status
