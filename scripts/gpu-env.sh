# Sourced by the scripts/gpu-*.sh that run on the GPU machine (from the repo root, .gpu carried):
# the output folder ($OUT, what the device tool brings back), cuBLAS on the loader path, one
# kernel cache for the session's calls, the timer and the bench's path (`SECONDS`, `B`),
# `precompile_all`, the earlier-commit helpers (`alternate`), `finish` (every log into one
# archive), `groups LOG` (a gpu_matmul log's pass/fail
# tally and its first failures), and the `bench` and `trace` runs of the bench (below).
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export DEEPGEMM_CACHE_DIR=${DEEPGEMM_CACHE_DIR:-/tmp/deepgemm-session-cache}
# Kernel caches carried from the development machine (gpu-pack.sh under CUBINS=...). From
# scripts/, or beside a copy of this file in .gpu/ (session 73 ran one from .gpu/ without it,
# and every kernel compiled on the GPU machine).
for _d in "$(dirname "${BASH_SOURCE[0]}")" scripts; do
    [ -f "$_d/gpu-unpack.sh" ] && { . "$_d/gpu-unpack.sh"; break; }
done
# Every script times itself from here and runs the packed bench unless it sets B first.
SECONDS=0
B=${B:-.gpu/deepgemm-bench}
# `precompile_all`: every sm90 kernel into the session's cache, on every core (~30 s), timed.
precompile_all() { "$B" --precompile all >/dev/null; echo "precompile all ${SECONDS}s"; }
# `save_kernels`: the session cache's sm90 kernels into $OUT/devcache.txz (python's xz: the
# image may lack xz), to carry as .gpu/cubins.txz on the next call with the same build (a
# fresh machine would compile them again: ~160 s for all).
save_kernels() {
    python3 - "$DEEPGEMM_CACHE_DIR" "$OUT/devcache.txz" <<'PY'
import os, sys, tarfile
with tarfile.open(sys.argv[2], "w:xz", preset=1) as t:
    for f in sorted(os.listdir(sys.argv[1])):
        if f.startswith("dg_sm90"):
            t.add(os.path.join(sys.argv[1], f), arcname=f)
PY
    echo "devcache $(du -h "$OUT/devcache.txz" | cut -f1) ${SECONDS}s"
}
# `sweep NAME SECS ARGS...`: every heuristic candidate of the bench's shapes timed (--sweep,
# cuBLASLt in the run) into $OUT/sweep-NAME.txt, at most SECS seconds (the logs kept in
# scripts/sweeps/ and scored by scripts/score-plans.sh).
sweep() {
    local name=$1 secs=$2; shift 2
    timeout "$secs" "$B" --sweep --check none --iters 20 --warmup 3 "$@" >"$OUT/sweep-$name.txt" 2>&1
    echo "== sweep $name rc=$? ${SECONDS}s"
}
# An earlier commit's bench (scripts/gpu-pack-old.sh puts it in .gpu/old), with a kernel cache of
# its own, for before/after timings in one run: `precompile_old [NAMES]` (default all),
# `bench_old NAME ARGS...` (as `bench`).
# A script may point them at another build (e.g. a second earlier commit in .gpu/old2).
OLD_B=${OLD_B:-.gpu/old/deepgemm-bench}
OLD_CACHE=${OLD_CACHE:-/tmp/deepgemm-old-cache}
precompile_old() { DEEPGEMM_CACHE_DIR=$OLD_CACHE "$OLD_B" --precompile "${1:-all}" >/dev/null; echo "precompile old ${SECONDS}s"; }
bench_old() { B=$OLD_B DEEPGEMM_CACHE_DIR=$OLD_CACHE bench "$@"; }
# `alternate ROUNDS ARGS...`: this build (`new-R`) and the earlier commit's (`old-R`) in turn,
# ROUNDS times, on the same bench arguments (cross-call variance is up to 16%: compare within a
# run). Its logs are named new-R / old-R whatever the arguments: a second `alternate` before
# `finish` overwrites the first's (session 34 lost two sets so); `pair` below names them.
alternate() {
    local rounds=$1; shift
    for ((r = 1; r <= rounds; r++)); do
        bench new-$r "$@"
        bench_old old-$r "$@"
    done
}
# `pair NAME ROUNDS ARGS...`: as `alternate`, logs named NAME-new-R / NAME-old-R.
pair() {
    local name=$1 rounds=$2; shift 2
    for ((r = 1; r <= rounds; r++)); do
        bench "$name-new-$r" "$@"
        bench_old "$name-old-$r" "$@"
    done
}
# `alternate_layouts ROUNDS LAYOUTS ARGS...`: `alternate` once per layout of LAYOUTS (e.g.
# "TN NN TT NT"), each layout's logs named LAYOUT_new-R.txt / LAYOUT_old-R.txt in $OUT.
alternate_layouts() {
    local rounds=$1 layouts=$2 out0=$OUT l x; shift 2
    for l in $layouts; do
        OUT=$out0/$l; mkdir -p "$OUT"
        alternate "$rounds" --layout "$l" "$@"
        for x in "$OUT"/*.txt; do mv "$x" "$out0/${l}_$(basename "$x")"; done
        rmdir "$OUT"
    done
    OUT=$out0
}
# `alternate_moved ROUNDS NAME ARGS...`: as `alternate_layouts`, but each layout (LAYOUTS, default
# "TN NN TT NT") on its own list, .gpu/shapes/NAME-<layout>.txt (skipped where there is none):
# the shape-layouts a planner change moved, logs LAYOUT_new-R.txt / LAYOUT_old-R.txt.
alternate_moved() {
    local rounds=$1 name=$2 l f r; shift 2
    for l in ${LAYOUTS:-TN NN TT NT}; do
        f=.gpu/shapes/$name-$(echo "$l" | tr A-Z a-z).txt
        [ -f "$f" ] || continue
        for ((r = 1; r <= rounds; r++)); do
            bench "${l}_new-$r" --layout "$l" --shapes "$f" "$@"
            bench_old "${l}_old-$r" --layout "$l" --shapes "$f" "$@"
        done
    done
}
# `trace_both SHAPE...`: `trace` of this build and of the earlier commit's (.gpu/old) at each shape.
trace_both() {
    local s
    for s in "$@"; do
        trace "new $s" --shape "$s"
        B=$OLD_B DEEPGEMM_CACHE_DIR=$OLD_CACHE trace "old $s" --shape "$s"
    done
}
# `small_launches`: prints session 23's small launches, one shape a line: random-21d's shapes the
# model ($B's) puts under 15 us (TN), then under-wave's.
small_launches() {
    grep -vE '^\s*#|^\s*$' .gpu/shapes/random-21d.txt | awk '{print $1}' > /tmp/r21d.txt
    "$B" --plans --shapes /tmp/r21d.txt | grep -A1 "^[0-9]" | grep -v "^--" | paste - - | awk '$2 + 0 < 15 {sub(":", "", $1); print $1}'
    grep -vE '^\s*#|^\s*$' .gpu/shapes/under-wave.txt | awk '{print $1}'
}
# `launch_cost_shapes`: `small_launches`, the decode rows M = 1 and 16 of small-m.txt and four
# large shapes: session 23's set for a change to every launch's fixed cost.
launch_cost_shapes() {
    small_launches
    grep -E '^(1|16)x' .gpu/shapes/small-m.txt | awk '{print $1}'
    printf '%s\n' 4096x4096x4096 8192x8192x1024 2048x2048x2048 1000x3000x4000
}
# `finish [PATTERN...]`: every *.txt under $OUT (and whatever PATTERNs, expanded there, name)
# into one logs.tgz, the files removed: the device tool brings back only a handful of files.
# Two scripts in one call each finish: the second tars into logs-2.tgz (session 27's 27c logs
# were overwritten by 27d's logs.tgz).
finish() {
    (cd "$OUT" && shopt -s nullglob && t=logs.tgz n=1 &&
        while [ -e "$t" ]; do n=$((n + 1)); t=logs-$n.tgz; done &&
        tar czf "$t" --remove-files *.txt $* 2>/dev/null)
}
# `matmul_groups TAG UNTIL NAME...`: gpu_matmul's groups NAME, one process each (so an env
# variable set on the call applies to all), into $OUT/TAG-NAME.txt, each within what is left
# before the script's second UNTIL; prints each result and its first failures.
matmul_groups() {
    local tag=$1 until=$2 t left; shift 2
    for t in "$@"; do
        left=$((until - SECONDS))
        [ $left -gt 10 ] || { echo "$t: skipped (${SECONDS}s)"; continue; }
        timeout $left .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture --exact "$t" \
            >"$OUT/$tag-$t.txt" 2>&1
        echo "$tag $t rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/$tag-$t.txt")"
        grep -m3 -E "FAIL|panicked" "$OUT/$tag-$t.txt"
    done
}
# A log without cargo's "test result" line is marked INCOMPLETE (13e's grid ran into its
# timeout inside the last group and its tally read like a pass).
groups() {
    grep -E "^group .*passed" "$1" | awk '{p += $(NF-5); f += $(NF-3)} END {printf "%d passed, %d failed", p, f}'
    grep -q "^test result" "$1" && echo || echo " INCOMPLETE (no test result: a timeout or a crash)"
    grep -E "^  FAIL" "$1" | head -5
}
# `direct [NAME [SECS]]`: every direct nvrtc_sm90 case (those DEEPGEMM_SM90_VARIANTS selects)
# into $OUT/NAME.txt (default direct) within SECS (default 240); prints the result, the cases
# passed and the first failures; returns the test's status (a script stops on it: a hang or a
# failure there would only repeat in the timings).
direct() {
    local name=${1:-direct} secs=${2:-240}
    # 240 s: with the 32-column staged rounds (session 27) its compiles took ~1.8x as long.
    timeout "$secs" .gpu/tests/nvrtc_sm90 --ignored --test-threads=1 --nocapture >"$OUT/$name.txt" 2>&1
    local rc=$?
    echo "nvrtc_sm90 $name rc=$rc ${SECONDS}s: $(grep -c 'max scaled' "$OUT/$name.txt") cases $(grep -E '^test result' "$OUT/$name.txt")"; grep -m5 -E "FAIL|panicked" "$OUT/$name.txt"
    [ $rc -eq 0 ] || tail -30 "$OUT/$name.txt"
    return $rc
}
# `grid NAME SECONDS`: the gpu_matmul grid (under whatever DEEPGEMM_* the call sets, e.g.
# `DEEPGEMM_DECOMPOSITION=streamk grid grid-streamk 150`) into $OUT/NAME.txt within SECONDS;
# prints its tally; returns non-zero unless the whole grid passed (a script stops on it).
grid() {
    timeout "$2" .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/$1.txt" 2>&1
    echo "== $1 rc=$? ${SECONDS}s: $(groups "$OUT/$1.txt")"
    grep -q "^test result: ok" "$OUT/$1.txt"
}
# `pack_and_blas PACK_SECS BLAS_SECS`: the gpu_pack and gpu_blas tests into $OUT, each within
# its limit; prints their tallies.
pack_and_blas() {
    timeout "$1" .gpu/tests/gpu_pack --ignored --test-threads=1 >"$OUT/gpu_pack.txt" 2>&1
    echo "== gpu_pack rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/gpu_pack.txt")"
    timeout "$2" .gpu/tests/gpu_blas --ignored --test-threads=1 >"$OUT/gpu_blas.txt" 2>&1
    echo "== gpu_blas rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/gpu_blas.txt")"
}
# `r21d_third`: every third shape of random-21d (40) as .gpu/shapes/r21d-third.txt, for
# before/after pairs that must stay under a call's 10 minutes.
r21d_third() { grep -v '^#' .gpu/shapes/random-21d.txt | awk 'NR % 3 == 1' >.gpu/shapes/r21d-third.txt; }
# `bench NAME ARGS...`: one deepgemm-bench run into $OUT/NAME.txt; prints its ratio column (shape,
# deepgemm ms, cuBLASLt ms, ratio) and the plans it took.
# `with VAR=VALUE... FUNCTION ARGS`: a function of this file with variables set for it only
# (`env VAR=... bench` fails: env runs programs, not shell functions; session 76 lost 75b's
# ping-pong runs to it).
with() {
    local vars=()
    while [[ $# -gt 0 && $1 == *=* ]]; do vars+=("$1"); shift; done
    ( export "${vars[@]}"; "$@" )
}

bench() {
    local name=$1; shift
    timeout 150 "${B:-.gpu/deepgemm-bench}" "$@" >"$OUT/$name.txt" 2>&1
    echo "== $name rc=$? ${SECONDS}s"
    grep -E "^[0-9]+x[0-9]+x[0-9]+ |^ratio" "$OUT/$name.txt" | awk '{print $1, $5, $7, $9}' | tr '\n' ';'; echo
    grep -E "^\[" "$OUT/$name.txt" | sed -e 's/.*heuristic [0-9.]* ms, //' -e 's/); check.*//' -e 's/dg_sm90_bf16_bf16_tn_//' | tr '\n' ' ' | cut -c1-3000; echo
}
# `gelu_checks LAYOUT...`: the bench's check (full float64 reference to 1024³, sample and
# cuBLASLt above) of GELU and GELU + bias, bf16 and fp16, on five shapes (tiny, 1000³, tiles past
# the edges, two large) in each layout, into $OUT/chk-LAYOUT-DTYPE-EPILOGUE.txt; prints the
# PASS / FAIL counts of each (session 50's GELU change).
gelu_checks() {
    local l d e
    for l in "$@"; do
        for d in bf16 fp16; do
            for e in gelu gelu_bias; do
                timeout 40 "$B" --iters 2 --warmup 1 --layout "$l" --dtype $d --epilogue $e \
                    --shape 131x67x129 --shape 1000x1000x1000 --shape 2472x1544x72 \
                    --shape 4096x14336x4096 --shape 8192x8192x1024 >"$OUT/chk-$l-$d-$e.txt" 2>&1
                echo "chk $l $d $e rc=$? ${SECONDS}s: $(grep -c ' PASS$' "$OUT/chk-$l-$d-$e.txt") PASS, $(grep -c 'FAIL' "$OUT/chk-$l-$d-$e.txt") FAIL"
            done
        done
    done
}
# `trace LABEL ARGS...`: a DG_TRACE run of deepgemm alone (kernels built with phase clocks,
# kernels/sm90/trace.cuh; TRACE_DEFINES=A,B adds experiment defines); prints the last launch's
# dg_trace lines, its CTAs' spread (dg_span) and CTA 0's first TMA-store epilogue box by box
# (dg_epi), all also appended to $OUT/traces.txt, or why there were none.
trace() {
    local label=$1; shift
    DEEPGEMM_NVRTC_DEFINES=DG_TRACE${TRACE_DEFINES:+,$TRACE_DEFINES} timeout 30 "${B:-.gpu/deepgemm-bench}" --no-cublas --iters 3 --warmup 1 --check none "$@" >"$OUT/tr.txt" 2>&1
    echo "== $label ($(grep -m1 -oE 'dg_sm90[^ ,)]*' "$OUT/tr.txt" | sed 's/dg_sm90_bf16_bf16_tn_//'))"
    grep "^dg_trace" "$OUT/tr.txt" | tail -4 | sed -e 's/dg_trace dg_sm90_bf16_bf16_tn_[^ ]* //' -e 's/start_ns [0-9]* //'
    grep "^dg_span" "$OUT/tr.txt" | tail -1 | sed -e 's/dg_span dg_sm90_[^ ]* //'
    grep "^dg_epi" "$OUT/tr.txt" | tail -2 | sed -e 's/dg_epi dg_sm90_[^ ]* //'
    # Kept in $OUT too: the device tool returns only the end of a call's output.
    grep -E "^dg_(trace|span|epi)" "$OUT/tr.txt" | tail -7 | sed -e "s|^|$label: |" >>"$OUT/traces.txt"
    grep -qm1 "^dg_trace" "$OUT/tr.txt" || grep -iE "error|fail" "$OUT/tr.txt" | head -3
}
