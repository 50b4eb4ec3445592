#!/usr/bin/env bash
# Owed after session 78 (~3 min): nvrtc_sm90's direct cases of the column-split tiles (13: TN
# 1 x 1 / 2 x 1 / 1 x 2, NN 1 x 1 / 2 x 1, TMA-store and general epilogues, row-major storage,
# an fp32 bias) and of the wide ping-pong tiles (15), which session 78's run stopped at a
# harness assertion after 10 and 9 passing cases (the test expected C by TMA on tiles whose
# kernel never loads it; fixed in `fbbafd1`). Predicted: all pass (the kernels did not change).
#     here:  CUBINS="_pp,_cs" bash scripts/gpu-pack.sh
#     there: DEADLINE=<seconds> timeout 590 bash scripts/gpu-session78c.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEADLINE=${DEADLINE:-300}
nvidia-smi -L
with DEEPGEMM_SM90_VARIANTS=_cs,_pp direct cs-pp-direct $((DEADLINE - 20))
finish
