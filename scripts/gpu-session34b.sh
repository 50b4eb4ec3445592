#!/usr/bin/env bash
# Session 34, call b (~8 min): before / after, alternating twice (L2 flushed, the bench's
# default), bf16:
#   - main at the session's start (4514764, .gpu/old) against 632a8fc on the shape-layouts
#     whose first plan moved with the row-major slabs (moved-34a-{tt,tn}: TT computed as NN
#     transposed, now on fill widths) and on PyTorch's prefill linears (prefill-34, with and
#     without a bias: 14336x1024x4096 goes transposed onto 128x224);
#   - 73cae5d (.gpu/m10: the same kernels, the 10% swap margin everywhere) against 632a8fc
#     (5% for TN problems whose D takes the TMA store both ways) on the TN shapes that moved
#     (moved-34b-tn);
#   - old against new on decode with a bias on 64-wide swapped tiles (bias-col-34a: the bias
#     along n now through the TMA-store epilogue) and on set A (control: every launch's
#     epilogue has the new run-time branches).
# Predicted: moved TT 3-8% faster; 14336x1024x4096 (+bias) 175 -> ~158 us (cuBLASLt 158.6:
# ~1.0x); the margin's TN moves 0-5% faster on average; bias-col 0-3% faster; set A within 1%.
#     here:  CUBINS=all bash scripts/gpu-pack.sh; then gpu-pack-old.sh 4514764 (with CUBINS of
#            its plans) and gpu-pack-old.sh 73cae5d m10
#     there: bash scripts/gpu-session34b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_old all
alternate 2 --layout TT --shapes scripts/shapes/moved-34a-tt.txt
finish
alternate 2 --shapes scripts/shapes/prefill-34.txt
alternate 2 --epilogue bias --shapes scripts/shapes/prefill-34.txt
finish
# The 10% margin: same kernels, so the session's own cache.
for r in 1 2; do
    bench new-m05-$r --shapes scripts/shapes/moved-34b-tn.txt
    B=.gpu/m10/deepgemm-bench bench m10-$r --shapes scripts/shapes/moved-34b-tn.txt
done
alternate 2 --layout TN --shapes scripts/shapes/moved-34a-tn.txt
alternate 2 --epilogue bias --shapes scripts/shapes/bias-col-34a.txt
finish
alternate 1 --shapes scripts/shapes/set-a.txt
finish
