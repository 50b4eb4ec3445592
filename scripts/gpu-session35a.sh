#!/usr/bin/env bash
# Session 35, call a (~8 min, every kernel carried): a row-major D in slabs stores its whole
# 64 x 64 boxes through D's whole-box map (SM90_FLAG_D_BOXES), only the last partial box in
# slabs. `old` is main at the session's start (6b21a14, .gpu/old: every box in slabs).
#   1. The direct nvrtc_sm90 cases (the row-major slab cases now run whole boxes + slabs).
#      Predicted: all pass.
#   2. Against old, one round each, L2 flushed, same plans both sides:
#      - PyTorch's MLP prefill 14336x1024x4096 forced onto 128x224 computed transposed
#        (DEEPGEMM_VARIANT; 34b: 179.4 us all in slabs, the column-major orientation 156.9).
#        Predicted ~160 us.
#      - the TT shapes on row-major 16-column slabs (moved-34c-tt; 34d: 0.969 of their time
#        before slabs). Predicted 0.95-0.97 of old's time, the 224/240-wide ones most.
#      - controls: 4096x2112x7168 (column-major 128x176: the new branch only), 4096^3.
#        Predicted within 1%.
#     here:  CUBINS=all bash scripts/gpu-pack.sh; CUBINS=... bash scripts/gpu-pack-old.sh 6b21a14
#     there: bash scripts/gpu-session35a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
# The old kernels these runs take (carried: cache hits).
precompile_old nn_m128n112k64_s6_c1x1,nn_m128n144k64_s5_c1x1,nn_m128n160k64_s5_c1x1,nn_m128n160k64_s5_c2x1,nn_m128n176k64_s5_c1x1,nn_m128n176k64_s5_c2x1,nn_m128n208k64_s4_c1x1,nn_m128n208k64_s4_c2x1,nn_m128n224k64_s4_c1x1,nn_m128n240k64_s4_c1x1,nn_m128n96k64_s6_c1x1,nn_m128n96k64_s6_c1x2,tn_m128n224k64_s4_c1x1,tn_m128n176k64_s5_c1x1,tn_m128n256k64_s4_c1x1
direct || { finish; exit 1; }
finish
DEEPGEMM_VARIANT=m128n224k64_s4_c1x1 pair p224 2 --shape 14336x1024x4096 --iters 30
pair ctl 1 --shape 4096x2112x7168 --shape 4096x4096x4096 --iters 20
finish
pair tt 1 --layout TT --shapes scripts/shapes/moved-34c-tt.txt
finish
