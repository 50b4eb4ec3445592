#!/usr/bin/env bash
# Session 30 (~450 s, on 29a's pack, after 29a and 29b): what 29b left open, then the owed
# sets and PyTorch under the preload.
#   29b found old2 (main + wip/staged-columns-f32.patch alone) the fastest of the three builds
#   with fp32 D and beta = 0 (0.953 of main's time on staged-27d / staged-28b, 0.980 on
#   random-21d), the TMA store (new) slower than main on short k (1568x2416x800 24.8 against
#   21.8 us), and new's beta = 1 (its staged columns) 1.26x main's. Open: does old2's beta = 1
#   lose as new's did (the same staged-columns code), and its tf32 and its ratio against
#   cuBLASLt (new ran 0.0248 alone, 0.0319 between cuBLASLt's launches).
#   1. beta = 1, staged-27d: old2 and old (main) in turn, twice. Predicted: old2 as new's
#      (1.25x main), if the staged columns' C loads are what costs; ~0.95 if it was the TMA
#      patch's buffer layout.
#   2. tf32-28d: old2 and old in turn, once. Predicted ~0.95 on short k, 1.00 on long.
#   3. Against cuBLASLt: fp32 D staged-27d, beta 0 with old and old2, beta 1 with old2; tf32
#      with old2. Predicted: old's ratio ~0.78 (28a: 0.779), old2's ~0.82.
#   4. scripts/gpu-session28c.sh's sets (bf16 out: the same kernels in all three builds).
#   5. PyTorch under the preload (main's preload library: .gpu/libdeepgemm_preload.so).
#     here:  29a's pack, then cargo build --release -p deepgemm-preload &&
#            cp target/release/libdeepgemm_preload.so .gpu/ && strip .gpu/libdeepgemm_preload.so
#     there: bash scripts/gpu-session30a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
bench_old2() { B=.gpu/old2/deepgemm-bench DEEPGEMM_CACHE_DIR=/tmp/deepgemm-old2-cache bench "$@"; }
precompile_old _f32_ &
OLD_B=.gpu/old2/deepgemm-bench OLD_CACHE=/tmp/deepgemm-old2-cache precompile_old _f32_ &
"$B" --precompile _bf16_bf16_ >/dev/null &
wait; echo "precompiled ${SECONDS}s"
for r in 1 2; do
    bench_old2 beta-old2-$r --beta 1 --out fp32 --no-cublas --check none --shapes $S/staged-27d.txt
    bench_old beta-old-$r --beta 1 --out fp32 --no-cublas --check none --shapes $S/staged-27d.txt
done
bench_old2 tf32-old2-1 --dtype tf32 --no-cublas --check none --shapes $S/tf32-28d.txt
bench_old tf32-old-1 --dtype tf32 --no-cublas --check none --shapes $S/tf32-28d.txt
bench_old vs-cublas-fp32-old --out fp32 --check sample --shapes $S/staged-27d.txt
bench_old2 vs-cublas-fp32-old2 --out fp32 --check sample --shapes $S/staged-27d.txt
bench_old2 vs-cublas-fp32-beta1-old2 --beta 1 --out fp32 --check sample --shapes $S/staged-27d.txt
bench_old2 vs-cublas-tf32-old2 --dtype tf32 --check sample --shapes $S/tf32-28d.txt
for set in random-21d random-k8 under-wave small-mn-long-k small-m; do
    bench "vs-cublas-$set" --check sample --shapes $S/$set.txt
done
for ws in 160 32; do
    bench "vs-cublas-cliffs-$ws" --iters 10 --warmup 2 --check sample --workspace-mib $ws --shapes $S/cliffs.txt
done
if [ -f .gpu/libdeepgemm_preload.so ] && [ "$SECONDS" -lt 400 ]; then
    mkdir -p "$OUT/preload"
    OUT="$OUT/preload" timeout $((580 - SECONDS)) bash scripts/preload/run.sh "$PWD/.gpu/libdeepgemm_preload.so" >"$OUT/preload.txt" 2>&1
    echo "preload rc=$? ${SECONDS}s"; tail -40 "$OUT/preload.txt"
fi
finish preload
