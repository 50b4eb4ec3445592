#!/usr/bin/env bash
# Compiles the sm90 kernels NAMES of the bench BENCH here (no GPU: the NVRTC wheel) into the
# content-keyed cache .gpu-cubins/ and writes exactly BENCH's entries, xz-compressed (CUBINs of
# sibling variants share most of their bytes: 54 MB -> 3 MB, where gzip gave 11), to OUT.
# Called by gpu-pack.sh and gpu-pack-old.sh under CUBINS=NAMES; unpacked on the GPU machine by
# gpu-env.sh / gpu-run.sh (`unpack_cubins`). The production kernels only: for other
# DEEPGEMM_NVRTC_DEFINES sets too, scripts/gpu-cubins-defines.sh (which this calls).
#     bash scripts/gpu-cubins.sh BENCH NAMES OUT
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH=$1 NAMES=$2 OUT=$3
# The whole help text first: `grep -q` closing the pipe early made the bench fail on a broken
# pipe, which pipefail took for a missing flag (session 34).
help=$("$BENCH" --help 2>&1 || true)
if ! grep -q -- --manifest <<<"$help"; then
    echo "gpu-cubins: $BENCH has no --manifest (a build before session 29): nothing carried" >&2
    exit 0
fi
exec bash scripts/gpu-cubins-defines.sh "$BENCH" "$OUT" "-:$NAMES"
