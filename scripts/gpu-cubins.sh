#!/usr/bin/env bash
# Compiles the sm90 kernels NAMES of the bench BENCH here (no GPU: the NVRTC wheel) into the
# content-keyed cache .gpu-cubins/ and writes exactly BENCH's entries, xz-compressed (CUBINs of
# sibling variants share most of their bytes: 54 MB -> 3 MB, where gzip gave 11), to OUT.
# Called by gpu-pack.sh and gpu-pack-old.sh under CUBINS=NAMES; unpacked on the GPU machine by
# gpu-env.sh / gpu-run.sh (`unpack_cubins`).
#     bash scripts/gpu-cubins.sh BENCH NAMES OUT
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH=$1 NAMES=$2 OUT=$3
. scripts/nvrtc-env.sh
if ! "$BENCH" --help | grep -q -- --manifest; then
    echo "gpu-cubins: $BENCH has no --manifest (a build before session 29): nothing carried" >&2
    exit 0
fi
CACHE=$PWD/.gpu-cubins
manifest=$(mktemp)
DEEPGEMM_CACHE_DIR=$CACHE "$BENCH" --precompile "$NAMES" --manifest "$manifest"
tar cf - -C "$CACHE" -T "$manifest" | xz -6 -T0 >"$OUT"
echo "== $OUT: $(wc -l <"$manifest") kernels, $(( $(stat -c %s "$OUT") >> 10 )) KiB"
rm -f "$manifest"
