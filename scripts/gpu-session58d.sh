#!/usr/bin/env bash
# Session 58, fifth call (~5 min; asked of an H200, the issues' GPU, whose last full table is
# session 50's `50c`): issue 3's and issue 4's sets at main (f3590bf: sessions 57-58 moved the
# plans of set A's 8192³ / 4096x28672x8192 TN and NN and tf32 TN shapes), each against
# cuBLASLt in the same run (one round, L2 flushed; tf32 8192³ three rounds), then PyTorch under
# the preload if time is left (last run in session 50; tf32 NT is substituted since session 56).
# Predicted (H200): set A TN ~0.99-1.0, fp16 within 1% of bf16 (57d on an H100: 0.2%), 8192³
# NN / TT / NT 1.03-1.05, bias + GELU ~0.98, tf32 8192³ 1.00-1.05, 4097³ ~4.6x, 4095³ / 4100³
# ~74% / 70% of 4096³'s rate, 127x4095x4096 ~3.0x, 1000x3000x4000 ~0.98, small-M ~1.05.
#     here:  bash scripts/gpu-pack.sh && cargo build --release -p deepgemm-preload &&
#            cp target/release/libdeepgemm_preload.so .gpu/ && strip .gpu/libdeepgemm_preload.so
#     there: timeout 590 bash scripts/gpu-session58d.sh
# Ran on an H100 (asked for an H200; logs scripts/sweeps/58d, BENCHMARKS.md session 58).
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
bench seta-bf16 --shapes $S/set-a.txt
bench seta-fp16 --dtype fp16 --shapes $S/set-a.txt
for l in NN TT NT; do bench "layout-$l" --layout $l --shape 4096x4096x4096 --shape 8192x8192x8192; done
bench gelu-bias --epilogue gelu_bias --shape 4096x14336x4096
for r in 1 2 3; do bench tf32-$r --dtype tf32 --shape 8192x8192x8192 --iters 20; done
bench cliffs --workspace-mib 160 --check sample --shapes $S/cliffs.txt
bench small-m --shapes $S/small-m.txt
bench small-n --shapes $S/small-n.txt
echo "sets ${SECONDS}s"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
if [ -f .gpu/libdeepgemm_preload.so ] && [ "$SECONDS" -lt 400 ]; then
    mkdir -p "$OUT/preload"
    OUT="$OUT/preload" timeout $((580 - SECONDS)) bash scripts/preload/run.sh "$PWD/.gpu/libdeepgemm_preload.so" >"$OUT/preload.txt" 2>&1
    echo "preload rc=$? ${SECONDS}s"; tail -30 "$OUT/preload.txt"
fi
finish
