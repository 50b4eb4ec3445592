#!/usr/bin/env bash
# Fifth GPU call of session 8, at main after the two session-7 branches were merged (8a): the
# sets whose figures in BENCHMARKS.md predate them (the L2 re-read charge changes plans on the
# small-N set; the fragment-order fixup changes every split plan's kernel time).
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session8e.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
bench small-n --shapes .gpu/shapes/small-n.txt
bench tiny --shape 1x64x64 --shape 64x64x64 --shape 128x128x128 --shape 256x256x256
bench cliffs --shapes .gpu/shapes/cliffs.txt --workspace-mib 160
bench waves --shapes .gpu/shapes/waves.txt
bench random --shapes .gpu/shapes/random.txt
