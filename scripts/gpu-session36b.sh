#!/usr/bin/env bash
# Session 36, call b (~4 min, after 36c on the same packs, 36c's device-compiled kernels
# carried as .gpu/cubins.txz): the rest of the shared-memory bias along n's timings against
# b592ea4 (.gpu/old).
#   0. The 13 TN shape-layouts the planner moves with a bias (moved-35-biascol-tn; 36a ran
#      them on the build with the divergent loop). Predicted ~0.95 of the time.
#   1. The 55 TT shape-layouts the planner moves with a bias (moved-35-biascol-tt: TT computed
#      as NN transposed, the bias then along the kernel's n, onto the wider tiles).
#      Predicted ~0.95 of the time (the fill widths transposed gained so without a bias).
#   3. The 8 NT / NN shape-layouts it moves (moved-36-biascol-{nt,nn}: onto transposed plans
#      in clusters of 2). Predicted ~0.97.
#   2. beta = 1 with a bias at 14336x1024x4096 (C by TMA and the staged bias on 128 x 224
#      transposed, against the direct 128 x 128). Predicted ~0.93 of the time.
#     there: bash scripts/gpu-session36b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
precompile_old "$(cat .gpu/old/names.txt)"
pair btn 1 --epilogue bias --shapes scripts/shapes/moved-35-biascol-tn.txt
pair bb1 1 --epilogue bias --beta 1 --shape 14336x1024x4096 --shape 11008x2048x4096 --iters 20
pair btt 1 --epilogue bias --layout TT --shapes scripts/shapes/moved-35-biascol-tt.txt
pair bnt 1 --epilogue bias --layout NT --shapes scripts/shapes/moved-36-biascol-nt.txt
pair bnn 1 --epilogue bias --layout NN --shapes scripts/shapes/moved-36-biascol-nn.txt
finish
