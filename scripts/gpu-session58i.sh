#!/usr/bin/env bash
# Prepared in session 58 (~3 min): do the Stream-K hybrids close set A's 1-3% to cuBLASLt?
# Most of set A ends in a partial wave of 128 x 256 tiles (4096x14336x4096 13.58 waves,
# 4096x8192x8192 7.76, 4096x7168x16384 6.79, 4096x24576x1536 23.27, 4096x2112x7168 2.18), so
# the data-parallel plans the model keeps there idle up to 3% of the SMs' time; the model
# charges the hybrids' fixups 1.5-3% over that (4096x14336x4096: data-parallel 597.8 us, c1x1
# sk208x132 615.8, c2x1 sk104x66 617.2), and only 8192³'s hybrid was ever timed (`57a`: c2x1
# sk100x66 1367.4 us against data-parallel 1381.3). Two interleaved sweeps of set A in TN, each
# with cuBLASLt in its loop: every hybrid of the 128 x 256 tile (c1x1, c2x1; both forms) under
# DEEPGEMM_DECOMPOSITION=hybrid, then that tile's default list (data-parallel c1x1 / c2x1 and
# what else the model ranks). Compare each plan's time over the cuBLASLt time of its own loop.
# Predicted: the c2x1 hybrid with a full wave more 0.98-1.0 of data-parallel's time where the
# last wave is partial (set A's 13 shapes but 2048³ and the 4096³-like 3.88 waves); if so, the
# fixup charges (PARTIAL_WRITE_S / PARTIAL_READ_S for k <= 4096) are too high at these sizes.
#     here:  bash scripts/gpu-pack.sh (a devcache as .gpu/cubins.txz)
#     there: timeout 400 bash scripts/gpu-session58i.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_VARIANT=m128n256k64_s4_c1x1,m128n256k64_s4_c2x1 DEEPGEMM_DECOMPOSITION=hybrid \
    sweep seta-hybrid 180 --interleave --iters 12 --shapes .gpu/shapes/set-a.txt
DEEPGEMM_VARIANT=m128n256k64_s4_c1x1,m128n256k64_s4_c2x1 \
    sweep seta-default 180 --interleave --iters 12 --shapes .gpu/shapes/set-a.txt
finish
