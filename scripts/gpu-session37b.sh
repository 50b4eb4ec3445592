#!/usr/bin/env bash
# Session 37, call b (~4 min on an H200, 37a's device-compiled kernels carried as
# .gpu/cubins.txz, same build): 37a ran on an H100, while the cost model is fitted to the H200.
# The same sweeps again on the H200, and random-k8 in NN, TT and NT, to tell what the model
# misranks on the device it is fitted to (37a's residuals: clusters of 2 x 2 ~10% under their
# estimates, TT planned as NN transposed ~12% over).
#     here: bash scripts/gpu-pack.sh (+ 37a's devcache.txz as .gpu/cubins.txz)
#     there: bash scripts/gpu-session37b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv
sweep random-21d-tn 150 --layout TN --shapes .gpu/shapes/random-21d.txt
sweep moved-35-tt 120 --layout TT --shapes .gpu/shapes/moved-35-biascol-tt.txt
for l in NN TT NT; do
    sweep random-k8-$(echo $l | tr A-Z a-z) 90 --layout $l --shapes .gpu/shapes/random-k8.txt
done
finish
