#!/usr/bin/env bash
# One GPU-machine call that checks everything a session changed, most important first, each
# step under its own time limit, leaving at most 8 files in $OUT (the device tool's limit):
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-session.sh --pack
#     there: bash scripts/gpu-session.sh        (with .gpu carried)
set -uo pipefail
if [ "${1:-}" = --pack ]; then
    # Extras for the install (issue 6) and preload (issue 5) checks, inside .gpu/.
    cargo build --release --workspace --lib
    cp target/release/libdeepgemm_preload.so .gpu/
    bash scripts/install.sh --prefix .gpu/prefix --strip --no-static >/dev/null
    du -sh .gpu
    exit 0
fi
. "$(dirname "$0")/gpu-env.sh"
step() { echo "== $*"; }

SECONDS=0
step "gpu_matmul (cost model picks the decomposition)"
timeout 170 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
# Every decomposition forced (issue 4): Stream-K over all tiles, and every tile split ~4 ways.
for d in ${DG_FORCED:-streamk splitk}; do
    step "gpu_matmul, DEEPGEMM_DECOMPOSITION=$d"
    DEEPGEMM_DECOMPOSITION=$d timeout 150 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture \
        ${DG_FORCED_TESTS:-shapes_types_transposes epilogues alpha_beta large_shapes repeated strided orders} \
        >"$OUT/matmul-$d.txt" 2>&1
    echo "gpu_matmul[$d] rc=$? ${SECONDS}s: $(groups "$OUT/matmul-$d.txt")"
done
step "gpu_pack (packed unaligned A/B)"
timeout 200 .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture >"$OUT/pack.txt" 2>&1
echo "gpu_pack rc=$? ${SECONDS}s: $(grep -E 'test result' "$OUT/pack.txt")"; grep -E "^(  FAIL|pack|packed|speed)" "$OUT/pack.txt" | head -8
step "gpu_autotune (DEEPGEMM_AUTOTUNE=1: tune once, second process reads the table)"
timeout 150 .gpu/tests/gpu_autotune --ignored --exact tunes_once_then_reads_the_table --test-threads=1 --nocapture >"$OUT/autotune.txt" 2>&1
echo "gpu_autotune rc=$? ${SECONDS}s: $(grep -E '^autotune:|test result' "$OUT/autotune.txt" | tr '\n' ' ')"
step "gpu_matmul, DEEPGEMM_CLUSTER=2 (the multicast variants wherever a tile has one)"
DEEPGEMM_CLUSTER=2 timeout 120 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture \
    large epilogues alpha_beta repeated >"$OUT/matmul-c2.txt" 2>&1
echo "gpu_matmul[c2] rc=$? ${SECONDS}s: $(groups "$OUT/matmul-c2.txt")"
step gpu_blas
timeout 60 .gpu/tests/gpu_blas --ignored --test-threads=1 --nocapture >>"$OUT/matmul.txt" 2>&1
echo "gpu_blas rc=$?"
step "gpu_multi (issue 7: one thread, handle and stream per GPU; device mismatch)"
timeout 90 .gpu/tests/gpu_multi --ignored --test-threads=1 --nocapture >"$OUT/multi.txt" 2>&1
echo "gpu_multi rc=$? ${SECONDS}s: $(grep -E 'test result' "$OUT/multi.txt")"
grep -E "^(one GPU|[0-9]+ GPUs|thread [0-9]|registry:|Lt handle|GemmEx handle|log:|after the|second context|  FAIL)" "$OUT/multi.txt" | head -20
step nvrtc_sm90
timeout 120 .gpu/tests/nvrtc_sm90 --ignored --nocapture --test-threads=1 >"$OUT/sm90.txt" 2>&1
echo "nvrtc_sm90 rc=$? ${SECONDS}s: $(grep -E 'test result' "$OUT/sm90.txt")"
(cd "$OUT" && tar czf tests.tgz matmul*.txt sm90.txt pack.txt autotune.txt multi.txt && rm -f matmul*.txt sm90.txt pack.txt autotune.txt multi.txt)
B=.gpu/deepgemm-bench
step "bench: shape set A (issue 3)"
$B --shapes .gpu/shapes/set-a.txt --json "$OUT/set-a.json" >"$OUT/bench.txt" 2>&1
echo "set A rc=$? ${SECONDS}s"
{
    $B --shape 4096x14336x4096 --epilogue gelu_bias
    $B --dtype fp16 --shape 4096x4096x4096 --shape 8192x8192x8192
    $B --dtype tf32 --out fp32 --shape 4096x4096x4096 --shape 8192x8192x8192
    $B --layout NN --shape 4096x4096x4096
    $B --layout TT --shape 4096x4096x4096
} >>"$OUT/bench.txt" 2>&1
step "bench: issue 4 sets (cliffs with 160 MiB workspace, small M, waves; again with a decomposition forced)"
$B --shapes .gpu/shapes/cliffs.txt --workspace-mib 160 --json "$OUT/cliffs.json" >>"$OUT/bench.txt" 2>&1
$B --shapes .gpu/shapes/small-m.txt --json "$OUT/small-m.json" >>"$OUT/bench.txt" 2>&1
$B --shapes .gpu/shapes/small-n.txt --json "$OUT/small-n.json" >>"$OUT/bench.txt" 2>&1
$B --shapes .gpu/shapes/waves.txt >>"$OUT/bench.txt" 2>&1
echo "== waves, DEEPGEMM_DECOMPOSITION=dp" >>"$OUT/bench.txt"
DEEPGEMM_DECOMPOSITION=dp $B --shapes .gpu/shapes/waves.txt >>"$OUT/bench.txt" 2>&1
echo "== waves, DEEPGEMM_AUTOTUNE=1 (first sight tunes: see first ms)" >>"$OUT/bench.txt"
DEEPGEMM_AUTOTUNE=1 $B --shapes .gpu/shapes/waves.txt --json "$OUT/waves-tuned.json" >>"$OUT/bench.txt" 2>&1
echo "issue 4 sets ${SECONDS}s"
grep -E "^[0-9]+x|shapes:|^== " "$OUT/bench.txt"
# Host time per call (issue 4): 20000 back-to-back 64^3 calls per case, deepgemm and cuBLASLt.
# A few seconds with warm kernel caches (the sets above compiled them); 20 s at most.
step "bench: host overhead per call (issue 4)"
echo "== host overhead" >>"$OUT/bench.txt"
timeout 20 $B --host-overhead >>"$OUT/bench.txt" 2>&1
echo "host overhead rc=$? ${SECONDS}s"
sed -n '/^== host overhead/,$p' "$OUT/bench.txt" | grep -E "^(host overhead|  [a-z]|    )"
if [ -d .gpu/prefix ]; then
    step "install check (issue 6)"
    timeout 120 bash scripts/gpu-install-check.sh .gpu/prefix >"$OUT/install.txt" 2>&1
    echo "install check rc=$?"; tail -5 "$OUT/install.txt"
fi
if [ -f .gpu/libdeepgemm_preload.so ]; then
    step "preload check (issue 5)"
    mkdir -p /tmp/pre
    OUT=/tmp/pre timeout "${PRELOAD_TIMEOUT:-200}" bash scripts/preload/run.sh "$PWD/.gpu/libdeepgemm_preload.so" >/tmp/pre/run.txt 2>&1
    echo "preload rc=$?"
    tar czf "$OUT/preload.tgz" -C /tmp pre
    tail -40 /tmp/pre/preload-report.txt 2>/dev/null || tail -20 /tmp/pre/run.txt
fi
