#!/usr/bin/env bash
# Session 50, call c (~6 min): issue 3's and issue 4's sets at main (last run together in
# session 35, `35d`; sessions 36-49 moved plans of set A's TT / NT, small-M and odd-D
# problems), each against cuBLASLt in the same run (one round, L2 flushed), then PyTorch under
# the preload (`scripts/preload/run.sh`, last run in session 31). Predicted: set A TN ~0.99,
# fp16 ~5% under bf16, 4096³ / 8192³ NN / TT / NT ~1.0-1.05, bias + GELU ~0.98, tf32 ~0.99,
# 4097³ ~4.6x, 4095³ / 4100³ ~74% / 69% of 4096³'s rate, 127x4095x4096 ~3.0x,
# 1000x3000x4000 ~0.98, small-M ~1.06 (50b: 1.057); the preload PASS at 100% substitution.
#     here:  bash scripts/gpu-pack.sh && cargo build --release -p deepgemm-preload &&
#            cp target/release/libdeepgemm_preload.so .gpu/ && strip .gpu/libdeepgemm_preload.so
#     there: timeout 580 bash scripts/gpu-session50c.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes
"$B" --precompile "$(paste -sd, $S/kernels-50c.txt)" >/dev/null
echo "precompile ${SECONDS}s"
bench seta-bf16 --shapes $S/set-a.txt
bench seta-fp16 --dtype fp16 --shapes $S/set-a.txt
for l in NN TT NT; do bench "layout-$l" --layout $l --shape 4096x4096x4096 --shape 8192x8192x8192; done
bench gelu-bias --epilogue gelu_bias --shape 4096x14336x4096
bench tf32 --dtype tf32 --shape 8192x8192x8192 --iters 20
bench cliffs --workspace-mib 160 --check sample --shapes $S/cliffs.txt
bench small-m --shapes $S/small-m.txt
bench small-n --shapes $S/small-n.txt
echo "sets ${SECONDS}s"
if [ -f .gpu/libdeepgemm_preload.so ] && [ "$SECONDS" -lt 430 ]; then
    mkdir -p "$OUT/preload"
    OUT="$OUT/preload" timeout $((575 - SECONDS)) bash scripts/preload/run.sh "$PWD/.gpu/libdeepgemm_preload.so" >"$OUT/preload.txt" 2>&1
    echo "preload rc=$? ${SECONDS}s"; tail -40 "$OUT/preload.txt"
fi
