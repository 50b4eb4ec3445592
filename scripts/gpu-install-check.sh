#!/usr/bin/env bash
# The installed library on the GPU machine (issue 6): builds the CMake consumers in
# ffi-tests/cpp and ffi-tests/c against an install prefix made here and carried there, and
# runs CTest with DEEPGEMM_EXPECT_GPU=1, so gemm_cpp and gemm_c must run their GEMMs through
# the installed libdeepgemm.so and match the CPU reference (no GPU = failure). Needs cmake,
# make and g++ there, no Rust.
#
# Here (no GPU needed):
#     bash scripts/install.sh --prefix target/gpu-install --strip --no-static
# There, from the repository root, with target/gpu-install carried along (the device
# tool's carry: ["target/gpu-install"]):
#     bash scripts/gpu-install-check.sh target/gpu-install
# Output goes to $OUT (./out when unset): gpu-install-check.log. Exit status 0 = every
# CTest test passed in both projects.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${1:-target/gpu-install}
PREFIX=$(cd "$PREFIX" 2>/dev/null && pwd) || {
    echo "gpu-install-check: no install prefix '${1:-target/gpu-install}'" >&2
    exit 2
}
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
LOG=$OUT/gpu-install-check.log
BUILD=${TMPDIR:-/tmp}/deepgemm-gpu-install-check
# NVRTC comes from the toolkit there; the driver from the system.
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export DEEPGEMM_CACHE_DIR=${DEEPGEMM_CACHE_DIR:-/tmp/deepgemm-cache}
export DEEPGEMM_EXPECT_GPU=1
unset DEEPGEMM_EXPECT_NO_GPU

exec > >(tee "$LOG") 2>&1
echo "== $(date -u +%FT%TZ) $(hostname); prefix $PREFIX"
nvidia-smi -L || echo "nvidia-smi failed"
ls -l "$PREFIX/lib"
readelf -d "$PREFIX"/lib/libdeepgemm.so.*.*.* | grep -E 'SONAME|NEEDED'

status=0
summary=()
for project in cpp c; do
    b=$BUILD/$project
    rm -rf "$b"
    echo "== cmake ffi-tests/$project against $PREFIX"
    if cmake -S "$ROOT/ffi-tests/$project" -B "$b" -DCMAKE_PREFIX_PATH="$PREFIX" \
        -DCMAKE_BUILD_TYPE=Release -DDEEPGEMM_WERROR=OFF && cmake --build "$b" --parallel 8; then
        readelf -d "$b/gemm_$project" | grep -E 'NEEDED|RUNPATH|RPATH'
        (cd "$b" && ctest --output-on-failure --verbose --timeout 300)
        rc=$?
    else
        rc=1
    fi
    [ $rc -ne 0 ] && status=1
    summary+=("ffi-tests/$project: exit $rc")
done
echo "== summary"
printf '%s\n' "${summary[@]}"
exit $status
