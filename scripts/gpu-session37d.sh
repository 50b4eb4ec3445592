#!/usr/bin/env bash
# Session 37, call d (~3 min on an H200; 37a's kernels carried as .gpu/cubins.txz): more of the
# model audit, on main with the 2 x 2 start (37c): every heuristic candidate timed (--sweep,
# cuBLASLt in the same run) on random-21d NN and NT (PyTorch's backward layouts: dgrad, wgrad),
# under-wave TN and small-mn-long-k TN (the weakest TN sets against cuBLASLt).
#     here: bash scripts/gpu-pack.sh (+ .gpu/cubins.txz)     there: bash scripts/gpu-session37d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
sweep random-21d-nn 150 --layout NN --shapes .gpu/shapes/random-21d.txt
sweep random-21d-nt 150 --layout NT --shapes .gpu/shapes/random-21d.txt
sweep under-wave-tn 60 --layout TN --shapes .gpu/shapes/under-wave.txt
sweep small-mn-long-k-tn 60 --layout TN --shapes .gpu/shapes/small-mn-long-k.txt
finish
