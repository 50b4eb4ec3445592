#!/usr/bin/env bash
# Session 35, call d (~6 min): issue 3's and issue 4's sets on main's final build, each against
# cuBLASLt in the same run (one round, L2 flushed): the sets had last been run in sessions
# 16-32, before programmatic dependent launch (33), the row-major slabs (34) and the whole
# boxes (35). Predicted: the figures of those sessions within ~1% (no whole-box kernel's
# mainloop or epilogue changed): set A ~0.99-1.0, fp16 ~5% under bf16, bias + GELU ~0.97,
# 4097^3 ~4.7x, 127x4095x4096 ~3.0x, 1000x3000x4000 0.98, 4095^3 / 4100^3 ~74% / 69% of
# 4096^3's rate (160 MiB), small-M ~1.06.
#     there: bash scripts/gpu-session35d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
bench seta-bf16 --shapes scripts/shapes/set-a.txt
bench seta-fp16 --dtype fp16 --shapes scripts/shapes/set-a.txt
for l in NN TT NT; do bench "layout-$l" --layout $l --shape 4096x4096x4096 --shape 8192x8192x8192; done
bench gelu-bias --epilogue gelu_bias --shape 4096x14336x4096
bench tf32 --dtype tf32 --shape 8192x8192x8192 --iters 20
finish
bench cliffs --workspace-mib 160 --check sample --shapes scripts/shapes/cliffs.txt
bench small-m --shapes scripts/shapes/small-m.txt
finish
