#!/usr/bin/env bash
# Session 56, third call (~1.5 min): 56a's tf32 NT at 8192³ ran 2.98 ms in eight data-parallel
# blocks (32 MiB) against 3.28 ms as one Stream-K hybrid (m128n256 sk200x132, 512 MiB): is
# the hybrid also what holds tf32 TN / NN 8192³ (issue 3's tf32 target: 0.997x cuBLASLt)?
# Default plan against DEEPGEMM_DECOMPOSITION=dp, cuBLASLt in each run.
# Predicted: data-parallel 0.90-0.95 of the hybrid's time at 8192³, ~1.0 at 4096³.
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
A="--dtype tf32 --iters 10 --warmup 2 --check none --shape 8192x8192x8192 --shape 4096x4096x4096"
for l in TN NN; do
    bench tf32-$l-default --layout $l $A
    DEEPGEMM_DECOMPOSITION=dp bench tf32-$l-dp --layout $l $A
done
finish
