#!/usr/bin/env bash
# Fifth GPU script of session 11, on branch next/split-cluster after the model's refit to 11d
# (split-K clusters planned only where they replace a global split over as many CTAs): the
# small-M set (and 127x4095x4096) and the small-N set against cuBLASLt at this binary.
# Predicted: small-M geomean ~0.99-1.00 (main 0.967 in session 10, 0.986 in 11d with the
# unfitted plans); 127x4095x4096 ~2.8x.
#     here:  bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session11e.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
bench small-m --shapes .gpu/shapes/small-m.txt --shape 127x4095x4096
bench small-n --shapes .gpu/shapes/small-n.txt
