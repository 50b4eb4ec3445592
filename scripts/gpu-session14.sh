#!/usr/bin/env bash
# For the next session (written in session 13, not run): its first call, three scripts in
# one machine start. Main's set A and small-N at the final kernels (13h), then branch
# next/sk-pipeline (14a: the Stream-K fixup's loads one step ahead, against main's bench),
# then branch next/trace-first-load (14b: when a launch's first stages arrive). Each script
# says what it predicts. ~450 s.
#     here:  bash scripts/gpu-pack.sh
#            bash scripts/gpu-pack-branch.sh next/sk-pipeline pipe
#            bash scripts/gpu-pack-branch.sh next/trace-first-load tfl
#            mkdir -p .gpu/pipe/.gpu/old && cp .gpu/deepgemm-bench .gpu/pipe/.gpu/old/
#     there: bash scripts/gpu-session14.sh  (.gpu carried, ~32 MiB)
set -uo pipefail
OUT=${OUT:-$PWD/out}
bash scripts/gpu-session13h.sh
(cd .gpu/pipe && OUT=$OUT/pipe DEEPGEMM_CACHE_DIR=/tmp/pipe-cache bash scripts/gpu-session14a.sh)
(cd .gpu/tfl && OUT=$OUT/tfl DEEPGEMM_CACHE_DIR=/tmp/tfl-cache bash scripts/gpu-session14b.sh)
