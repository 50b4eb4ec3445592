#!/usr/bin/env bash
# Session 12, last call: the streaming flags limited to operands of at most 192 MiB
# (STREAM_MAX_BYTES). 12f measured 128x28672x8192 (470 MB of B, 128x224 tiles) 125.2 -> 134.8
# us with B evict_first, the other 470 MB and 235 MB operands within +-1.4%, 29-134 MB ones
# 5-11% faster. Host-side only: the kernels are those of 12g.
# Predicted (deepgemm alone, new = this commit's bench in .gpu/new, main = 12g's in .gpu):
# the operands over 192 MiB back to the unflagged times (128x28672x8192 ~125 us, 64x28672x8192
# ~131, 1x28672x8192 ~130, 128x7168x16384 ~75); 1x8192x8192 (134 MB) and 128x14336x4096
# (117 MB) still streamed, unchanged (~40.6, ~39.3).
#     here:  bash scripts/gpu-pack.sh at 9eb2147, then this commit's deepgemm-bench in .gpu/new
#     there: bash scripts/gpu-session12h.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S="--shape 128x28672x8192 --shape 64x28672x8192 --shape 1x28672x8192 --shape 128x7168x16384 --shape 1x7168x16384 --shape 1x8192x8192 --shape 128x14336x4096"
for i in 1 2; do
    B=.gpu/new/deepgemm-bench bench new-$i $S --no-cublas --check none
    bench main-$i $S --no-cublas --check none
done
# Measured (12h, us, two alternations, new / main): 128x28672x8192 124.7, 124.9 / 134.0, 134.4;
# 64x28672x8192 126.3, 125.9 / 128.6, 129.2; 1x28672x8192 126.8, 126.0 / 129.1, 127.7;
# 128x7168x16384 77.0, 77.3 / 75.8, 75.9; 1x7168x16384 72.8, 73.1 / 69.5, 69.7; 1x8192x8192
# and 128x14336x4096 equal. So the 470 MB operands are better not streamed, the 235 MB ones
# better streamed: the limit is now 320 MiB (the next commit), between the two; the 235 MB
# shapes stream again as in 12g, the 470 MB ones run as "new" here.
