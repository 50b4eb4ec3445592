#!/usr/bin/env bash
# Session 35, call e (~8 min with every kernel compiled there; run with wip/bias-col-wide.patch
# applied, the patch in git at b4953a6, merged reworked in session 36): a bias along n on tiles up to
# 240 wide (TMA-store instantiations only launches with one take, beta = 0; the tile's bias
# prefetched into L1 when its mainloop starts), against main's final build (.gpu/old:
# 2ee43ea's planner and kernels, its cubins carried).
#   1. The direct nvrtc_sm90 cases (new: the bias along n at 96-240 wide, both D orders, whole
#      boxes and slabs) and the gpu_matmul groups of swapped problems and biases along n.
#      Predicted: all pass.
#   2. PyTorch's prefill linears with a bias (prefill-34): 14336x1024x4096 moves onto 128x224
#      transposed. Predicted ~160 us against ~172 (0.93 of the time, ~0.95x cuBLASLt); the
#      rest unchanged.
#   3. The TN and TT shape-layouts the change moves with a bias (moved-35-biascol-*).
#      Predicted ~0.95 of the time (TT: the fill widths transposed, as without a bias).
#   4. Controls without a bias: 4096^3 and 14336x1024x4096 (the plain instantiations).
#      Predicted within 1%.
#     here (after gpu-pack with CUBINS=all): main's bench and cubins.txz into .gpu/old
#     there: bash scripts/gpu-session35e.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
direct || { finish; exit 1; }
finish
pair pfb 1 --epilogue bias --shapes scripts/shapes/prefill-34.txt --iters 20
pair ctl 1 --shape 4096x4096x4096 --shape 14336x1024x4096 --iters 20
finish
timeout 100 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture swapped transposed >"$OUT/grid-bias.txt" 2>&1
echo "== grid-bias rc=$? ${SECONDS}s: $(groups "$OUT/grid-bias.txt")"
finish
pair btn 1 --epilogue bias --shapes scripts/shapes/moved-35-biascol-tn.txt
pair btt 1 --epilogue bias --layout TT --shapes scripts/shapes/moved-35-biascol-tt.txt
finish
