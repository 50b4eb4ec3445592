#!/usr/bin/env bash
# Like scripts/gpu-cubins.sh, for kernels built under several DEEPGEMM_NVRTC_DEFINES sets at
# once (diagnostic builds: DG_TRACE, ...; the defines are part of the cache key): for each
# SPEC "SET:NAMES" compiles NAMES (comma-separated name parts, or "all") here under SET ("-"
# for none) into .gpu-cubins/, and writes all their entries, xz-compressed, to OUT, which
# gpu-env.sh unpacks there as it does gpu-cubins.sh's. Only the kernels a call needs instead of
# `CUBINS=all`'s ~25 minutes of compiles.
#     bash scripts/gpu-cubins-defines.sh BENCH OUT SPEC...
# e.g. ... target/release/deepgemm-bench .gpu/cubins.txz "-:all" "DG_TRACE:m128n32k64_s10_c1x1"
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH=$1 OUT=$2
shift 2
. scripts/nvrtc-env.sh
CACHE=$PWD/.gpu-cubins
all=$(mktemp)
for spec in "$@"; do
    set=${spec%%:*} names=${spec#*:}
    manifest=$(mktemp)
    if [ "$set" = "-" ]; then
        env -u DEEPGEMM_NVRTC_DEFINES DEEPGEMM_CACHE_DIR="$CACHE" "$BENCH" --precompile "$names" --manifest "$manifest"
    else
        DEEPGEMM_NVRTC_DEFINES="$set" DEEPGEMM_CACHE_DIR="$CACHE" "$BENCH" --precompile "$names" --manifest "$manifest"
    fi
    cat "$manifest" >>"$all"
    rm -f "$manifest"
done
sort -u "$all" | tar cf - -C "$CACHE" -T - | xz -6 -T0 >"$OUT"
echo "== $OUT: $(sort -u "$all" | wc -l) kernels ($*), $(( $(stat -c %s "$OUT") >> 10 )) KiB"
rm -f "$all"
