#!/usr/bin/env bash
# Like scripts/gpu-cubins.sh, for kernels built under several DEEPGEMM_NVRTC_DEFINES sets at
# once (diagnostic builds: DG_TRACE, DG_EARLY_ISSUE, ...; the defines are part of the cache
# key): compiles NAMES here under each SET (";"-separated, "-" for none) into .gpu-cubins/ and
# writes all their entries, xz-compressed, to OUT, which gpu-env.sh unpacks there as it does
# gpu-cubins.sh's. A subset of kernels instead of `CUBINS=all`'s ~25 minutes of compiles.
#     bash scripts/gpu-cubins-defines.sh BENCH NAMES "SET;SET;..." OUT
# e.g. ... target/release/deepgemm-bench m128n16k64_s11_c1x1,m128n256k64 "-;DG_EARLY_ISSUE" .gpu/cubins.txz
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH=$1 NAMES=$2 SETS=$3 OUT=$4
. scripts/nvrtc-env.sh
CACHE=$PWD/.gpu-cubins
all=$(mktemp)
IFS=';' read -ra sets <<<"$SETS"
for set in "${sets[@]}"; do
    manifest=$(mktemp)
    if [ "$set" = "-" ]; then
        env -u DEEPGEMM_NVRTC_DEFINES DEEPGEMM_CACHE_DIR="$CACHE" "$BENCH" --precompile "$NAMES" --manifest "$manifest"
    else
        DEEPGEMM_NVRTC_DEFINES="$set" DEEPGEMM_CACHE_DIR="$CACHE" "$BENCH" --precompile "$NAMES" --manifest "$manifest"
    fi
    cat "$manifest" >>"$all"
    rm -f "$manifest"
done
sort -u "$all" | tar cf - -C "$CACHE" -T - | xz -6 -T0 >"$OUT"
echo "== $OUT: $(sort -u "$all" | wc -l) kernels under '${SETS}', $(( $(stat -c %s "$OUT") >> 10 )) KiB"
rm -f "$all"
