#!/usr/bin/env bash
# Session 31 (~250 s + the preload, kernels carried): the two runs session 30 owed, in one call.
#   1-2. scripts/gpu-session30d.sh's run of wip/c-ahead.patch (its header has the predictions:
#        beta = 1 bf16 D 0.90-0.95 of main's time, fp32 D 0.92-0.97 on 136-184-wide tiles,
#        random-21d beta 1 0.95-0.98, the beta = 0 bias control 1.00 +- 0.01; every correctness
#        run passes).
#   3. PyTorch under the preload at main (gemm::run_accepted, `0eadcf8`): predicted the same
#      table as session 30's `30a` (every output within tolerance, 100% of supported calls
#      substituted, exact fp32 forwarded as portable at ~1.0x), host time per call a little lower.
#     here:  git apply wip/c-ahead.patch && CUBINS=all bash scripts/gpu-pack.sh &&
#            git checkout -- kernels && CUBINS=all bash scripts/gpu-pack-old.sh HEAD &&
#            cargo build --release -p deepgemm-preload &&
#            cp target/release/libdeepgemm_preload.so .gpu/ && strip .gpu/libdeepgemm_preload.so
#     there: bash scripts/gpu-session31a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
precompile_all
precompile_old all &
direct || { wait; finish; exit 1; }
wait
grid grid 200 || { finish; exit 1; }
DEEPGEMM_DECOMPOSITION=streamk grid grid-streamk 150
B1="--beta 1 --no-cublas --check none --shapes $S/staged-27d.txt"
for r in 1 2; do
    bench beta-f32-new-$r --out fp32 $B1
    bench_old beta-f32-old-$r --out fp32 $B1
    bench beta-bf16-new-$r $B1
    bench_old beta-bf16-old-$r $B1
done
bench random-beta-new-1 --beta 1 --no-cublas --check none --shapes $S/random-21d.txt
bench_old random-beta-old-1 --beta 1 --no-cublas --check none --shapes $S/random-21d.txt
bench beta0-bias-f32-new-1 --out fp32 --epilogue bias --no-cublas --check none --shapes $S/staged-27d.txt
bench_old beta0-bias-f32-old-1 --out fp32 --epilogue bias --no-cublas --check none --shapes $S/staged-27d.txt
bench vs-cublas-beta-f32 --beta 1 --out fp32 --check sample --shapes $S/staged-27d.txt
bench vs-cublas-beta-bf16 --beta 1 --check sample --shapes $S/staged-27d.txt
if [ -f .gpu/libdeepgemm_preload.so ] && [ "$SECONDS" -lt 450 ]; then
    mkdir -p "$OUT/preload"
    OUT="$OUT/preload" timeout $((585 - SECONDS)) bash scripts/preload/run.sh "$PWD/.gpu/libdeepgemm_preload.so" >"$OUT/preload.txt" 2>&1
    echo "preload rc=$? ${SECONDS}s"; tail -60 "$OUT/preload.txt"
fi
finish preload
