#!/usr/bin/env bash
# Session 20, part 2 (speed): every shape-layout whose plan moved (scripts/shapes/moved-20f.txt,
# 12 shapes x 4 layouts, 50 moved) against main before the change (6b7cb37), alternating twice,
# cuBLASLt alongside.
#   Predicted: moved TN/NN/TT 0.80-0.95 of the old time (496x1000x11400 ~0.75: 49 -> ~37 us;
#   1048x1328x7336 ~0.85), NT ~0.9; none slower than 1.05x.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh 6b7cb37
#     there: bash scripts/gpu-session20g.sh (~300 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
alternate_layouts 2 "TN NN TT NT" --check sample --shapes .gpu/shapes/moved-20f.txt
finish
