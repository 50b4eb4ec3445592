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
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export DEEPGEMM_CACHE_DIR=/tmp/deepgemm-session-cache
step() { echo "== $*"; }
groups() { grep -E "^group .*passed" "$1" | awk '{p += $(NF-5); f += $(NF-3)} END {printf "%d passed, %d failed\n", p, f}'; grep -E "^  FAIL" "$1" | head -5; }

step gpu_matmul
timeout 150 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$?: $(groups "$OUT/matmul.txt")"
step gpu_blas
timeout 60 .gpu/tests/gpu_blas --ignored --test-threads=1 --nocapture >>"$OUT/matmul.txt" 2>&1
echo "gpu_blas rc=$?"
step nvrtc_sm90
timeout 120 .gpu/tests/nvrtc_sm90 --ignored --nocapture --test-threads=1 >"$OUT/sm90.txt" 2>&1
echo "nvrtc_sm90 rc=$?: $(grep -E 'test result' "$OUT/sm90.txt")"
step "bench: shape set A"
.gpu/deepgemm-bench --shapes .gpu/shapes/set-a.txt --json "$OUT/set-a.json" >"$OUT/bench.txt" 2>&1
echo "set A rc=$?"
.gpu/deepgemm-bench --shape 4096x14336x4096 --epilogue gelu_bias >>"$OUT/bench.txt" 2>&1
.gpu/deepgemm-bench --dtype fp16 --shape 4096x4096x4096 --shape 8192x8192x8192 >>"$OUT/bench.txt" 2>&1
.gpu/deepgemm-bench --layout NN --shape 4096x4096x4096 >>"$OUT/bench.txt" 2>&1
.gpu/deepgemm-bench --layout TT --shape 4096x4096x4096 >>"$OUT/bench.txt" 2>&1
grep -E "^[0-9]+x|shapes:" "$OUT/bench.txt"
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
