#!/usr/bin/env bash
# Compares the SASS of the CUBINs in two directories (file by file, function names dropped),
# e.g. to show a kernel-source change leaves the existing variants' code as it was. No GPU:
# fetches cuobjdump and nvdisasm from PyPI into .deps/ on first use.
#     mkdir -p /tmp/a /tmp/b
#     DEEPGEMM_SM90_CUBIN_DIR=/tmp/a DEEPGEMM_SM90_VARIANTS=m128n256k64_s4,... \
#         cargo test --release --test nvrtc_sm90 -- every_sm90      (before the change)
#     ... the same into /tmp/b after it, then: bash scripts/sass-diff.sh /tmp/a /tmp/b
set -euo pipefail
cd "$(dirname "$0")/.."
DEPS="$PWD/.deps/cuda-tools"
for tool in cuobjdump nvdisasm; do
    if [ ! -x "$DEPS/nvidia/cu13/bin/$tool" ]; then
        pip download --no-deps -q -d "$DEPS/wheels" "nvidia-cuda-$tool" >/dev/null
        (cd "$DEPS" && for w in wheels/nvidia_cuda_${tool}-*.whl; do python3 -m zipfile -e "$w" .; done)
        chmod +x "$DEPS/nvidia/cu13/bin/$tool"
    fi
done
export PATH="$DEPS/nvidia/cu13/bin:$PATH"
status=0
for f in "$1"/*.cubin; do
    b=$(basename "$f")
    [ -e "$2/$b" ] || { echo "$b: only in $1"; status=1; continue; }
    x=$(cuobjdump -sass "$f" | grep -v Function | md5sum | cut -c1-12)
    y=$(cuobjdump -sass "$2/$b" | grep -v Function | md5sum | cut -c1-12)
    if [ "$x" = "$y" ]; then echo "$b: same SASS"; else echo "$b: SASS DIFFERS"; status=1; fi
done
exit $status
