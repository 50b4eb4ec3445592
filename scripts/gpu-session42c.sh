#!/usr/bin/env bash
# Session 42, call c (~4 min): why the skinny kernel streamed its operand at ~2 TB/s in `42b`
# (1x28672x8192 234 us against the tile plans' 129): its warps ask for 64 bytes of a row a
# copy, so without a TMA map's L2 promotion DRAM serves 64-byte requests. The L2 prefetch size
# of A's copies (SKINNY_L2_PREFETCH 256 = the new default, 128, 0 = `42b`'s kernel) and the
# ring's depth (DEEPGEMM_SKINNY_RING_KIB: 192 = one CTA an SM twice as deep, 48 = half),
# against the tile plans (DEEPGEMM_SKINNY=0), on the small-M set's M <= 16 rows and decode-42.
# Predicted: 256 brings the large shapes to 3.5-4 TB/s (1x28672x8192 ~125 us, 0.95 of the tile
# plan's time), 128 between; depth matters less once the requests are large.
#     here: save .gpu/cubins.txz, bash scripts/gpu-pack.sh, put it back
#     there: bash scripts/gpu-session42c.sh
# (As run in session 42 the build planned the skinny kernel by default and DEEPGEMM_SKINNY=0
# gave the tile plans; the runs now name the opt-in, DEEPGEMM_SKINNY=1.)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
grep -E '^(1|16)x' .gpu/shapes/small-m.txt > /tmp/decode-m.txt
cat /tmp/decode-m.txt > /tmp/decode-all.txt
grep -vE '^\s*#|^\s*$' .gpu/shapes/decode-42.txt >> /tmp/decode-all.txt
A=(--layout TN --shapes /tmp/decode-all.txt --iters 30 --warmup 5 --check none)
DEEPGEMM_SKINNY=1 bench p256 "${A[@]}"
bench tiles "${A[@]}"
DEEPGEMM_SKINNY=1 DEEPGEMM_NVRTC_DEFINES=SKINNY_L2_PREFETCH=128 DEEPGEMM_CACHE_DIR=/tmp/dg-p128 bench p128 "${A[@]}"
DEEPGEMM_SKINNY=1 DEEPGEMM_NVRTC_DEFINES=SKINNY_L2_PREFETCH=0 DEEPGEMM_CACHE_DIR=/tmp/dg-p0 bench p0 "${A[@]}"
DEEPGEMM_SKINNY=1 DEEPGEMM_SKINNY_RING_KIB=192 bench ring192 "${A[@]}"
DEEPGEMM_SKINNY=1 DEEPGEMM_SKINNY_RING_KIB=48 bench ring48 "${A[@]}"
DEEPGEMM_SKINNY=1 bench p256-2 "${A[@]}"
bench tiles-2 "${A[@]}"
finish
