#!/usr/bin/env bash
# Session 31 (~330 s, kernels carried): C through TMA for beta != 0 (branch ctma, `SM90_FLAG_C_TMA`):
# C's boxes loaded by TMA into the TMA-store staging that D's boxes are stored from, the first
# two during the tile's mainloop, the rest as each buffer's store has read it; ldmatrix reads C
# at stmatrix's addresses. Every kernel has a fifth argument (tmap_c) and four more mbarriers.
#   1. Correct: every direct nvrtc_sm90 case (new: c_tma_cases, both 16-bit types and orders,
#      C aliasing D, moved edge tiles, 16/8-column pieces, ping-pong, batches), the gpu_matmul
#      grid (beta != 0 on every layout of C) and the grid forced onto Stream-K (owners read C
#      in the general epilogue, data-parallel tiles by TMA in the same launch). Predicted: all
#      pass.
#   2. Against main (old), deepgemm alone: beta = 1 bf16 D on staged-27d alternating twice,
#      fp16 once; random-21d beta 1 once each; the beta = 0 control (random-21d) once each.
#      Predicted: staged-27d beta 1 0.70-0.80 of main's time (1568x2416x800 on 128x248: main
#      28.4 us, beta = 0 15.5, C's 7.6 MB ~2.5 us more, boxes 2-3 of a tile waiting on L2);
#      random-21d beta 1 0.85-0.95; control 1.00 +- 0.01.
#   3. Against cuBLASLt with beta = 1, bf16 D: staged-27d 0.705 -> 0.90-1.0; random-21d.
#     here:  CUBINS=all bash scripts/gpu-pack.sh && CUBINS=all bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session31b.sh
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
    bench beta-bf16-new-$r $B1
    bench_old beta-bf16-old-$r $B1
done
bench beta-f16-new-1 --dtype fp16 $B1
bench_old beta-f16-old-1 --dtype fp16 $B1
bench random-beta-new-1 --beta 1 --no-cublas --check none --shapes $S/random-21d.txt
bench_old random-beta-old-1 --beta 1 --no-cublas --check none --shapes $S/random-21d.txt
bench random-beta0-new-1 --no-cublas --check none --shapes $S/random-21d.txt
bench_old random-beta0-old-1 --no-cublas --check none --shapes $S/random-21d.txt
bench vs-cublas-beta-bf16 --beta 1 --check sample --shapes $S/staged-27d.txt
bench vs-cublas-random-beta --beta 1 --check sample --shapes $S/random-21d.txt
finish
