#!/usr/bin/env bash
# Session 24 (~60 s): why the reduce-scatter ran 7-22% slower (`24f`: 552x224x9216 on 128x64
# sk20x80 18.8 -> 23.1 us, 416x568x8000 on 128x128 sk20x100 21.6 -> 25.6). DG_TRACE of both
# fixups on the same plans (first CTA: a member that finishes nothing; last: a finisher), with
# every CTA's span.
#     here:  git apply wip/reduce-scatter.patch && bash scripts/gpu-pack.sh && git checkout kernels src tests;  there: bash scripts/gpu-session24g.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
"$B" --precompile _bf16_bf16_tn_ >/dev/null; echo "precompile tn ${SECONDS}s"
for sc in 0 1; do
    DEEPGEMM_SCATTER=$sc DEEPGEMM_VARIANT=m128n64k64_s8_c1x1 trace "552x224x9216 n64 scatter=$sc" --shape 552x224x9216
    DEEPGEMM_SCATTER=$sc DEEPGEMM_VARIANT=m128n128k64_s6_c1x1 trace "416x568x8000 n128 scatter=$sc" --shape 416x568x8000
done
finish
