#!/usr/bin/env bash
# Session 74, third call (asked of an H200, the issues' GPU; nothing there since session 60):
# issue 3's and issue 4's tables at main (`08653cd`; kernels and plans as `673e9ba`, whose bench
# this call carries), each against cuBLASLt in the same run, steps in order of worth while the
# DEADLINE (seconds) leaves room. The same list as scripts/gpu-session58d.sh.
# Predicted (H200, as session 60 but for the column split's moves): set A ~1.0, fp16 within
# ~1-5% of bf16, bias + GELU ~0.99, tf32 8192³ ~1.0, 4097³ ~4.6x, 4095³ / 4100³ ~74% / 70% of
# 4096³'s rate, 127x4095x4096 ~3.0x, 1000x3000x4000 ~0.98, small-M ~1.05.
#     here:  bash scripts/gpu-pack.sh (the bench and cubins.txz suffice)
#     there: timeout 590 bash scripts/gpu-session74c.sh (DEADLINE=S for a shorter call)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEADLINE=${DEADLINE:-575}
have() { [ $((SECONDS + $1)) -lt "$DEADLINE" ]; }
nvidia-smi -L
S=.gpu/shapes
have 60 && bench seta-bf16 --shapes $S/set-a.txt
have 60 && bench seta-fp16 --dtype fp16 --shapes $S/set-a.txt
have 30 && bench gelu-bias --epilogue gelu_bias --shape 4096x14336x4096
have 40 && bench tf32-1 --dtype tf32 --shape 8192x8192x8192 --iters 20
have 60 && bench cliffs --workspace-mib 160 --check sample --shapes $S/cliffs.txt
have 60 && bench small-m --shapes $S/small-m.txt
for l in NN TT NT; do have 30 && bench "layout-$l" --layout $l --shape 4096x4096x4096 --shape 8192x8192x8192; done
have 40 && bench tf32-2 --dtype tf32 --shape 8192x8192x8192 --iters 20
have 60 && bench small-n --shapes $S/small-n.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
finish
