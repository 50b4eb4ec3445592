#!/usr/bin/env bash
# Builds deepgemm here (no GPU needed) and packs into .gpu/ everything a run on the GPU
# machine needs: the bench, libdeepgemm.so, every tests/gpu_* test executable (plus the
# registry and api_device tests, whose GPU halves are ignored here) under a
# stable name, a default shape list and gpu-run.sh. Then, there, from the repo root:
#     bash .gpu/gpu-run.sh [all|tests|bench|gpu_matmul|gpu_blas|...] [args...]
# .gpu/ is git-ignored; send it along (e.g. the device tool's `carry: [".gpu"]`).
#
# CUBINS=NAMES (e.g. all, or _f32_,m128n256): also compile those sm90 kernels here
# (`deepgemm-bench --precompile NAMES`, ~2 s a kernel a core) into .gpu-cubins/ (kept
# between packs: the cache is content-keyed, so a repack compiles only what changed) and carry
# exactly this build's entries as .gpu/cubins.txz; scripts/gpu-env.sh and gpu-run.sh unpack it
# into the run's kernel cache, so a fresh GPU machine compiles nothing (precompile all took
# ~145 s of device time, the direct test's compiles 60-100 s more). All 564 (session 30): ~10
# min here, 5 MB carried (106 MB unpacked); all ~800 (session 47): over 45 min here, so that
# session packed none and ran `precompile_all` (scripts/gpu-env.sh) on the GPU machine instead.
set -euo pipefail
cd "$(dirname "$0")/.."
PACK=.gpu
LIMIT_MIB=60

echo "== cargo build --release (lib + deepgemm-bench)"
cargo build --release --lib --bin deepgemm-bench
echo "== cargo test --release --no-run"
cargo test --release --no-run

# "name<TAB>path" of every integration-test executable named gpu_*.
list_gpu_tests() {
    local json
    json=$(cargo test --release --no-run --message-format=json 2>/dev/null)
    if command -v jq >/dev/null 2>&1; then
        jq -r 'select(.reason == "compiler-artifact" and .executable != null
                      and (.target.kind | index("test")) and ((.target.name | startswith("gpu_")) or .target.name == "registry" or .target.name == "api_device" or .target.name == "nvrtc_sm90"))
               | "\(.target.name)\t\(.executable)"' <<<"$json"
    else
        # No jq: cargo prints one JSON object per line; pick the fields with sed.
        grep '"reason":"compiler-artifact"' <<<"$json" | grep '"kind":\["test"\]' |
            sed -n 's/.*"target":{[^}]*"name":"\(gpu_[^"]*\|registry\|api_device\|nvrtc_sm90\)".*"executable":"\([^"]*\)".*/\1\t\2/p'
    fi
}

rm -rf "$PACK"
mkdir -p "$PACK/tests"
cp target/release/deepgemm-bench "$PACK/"
cp target/release/libdeepgemm.so "$PACK/"
n=0
while IFS=$'\t' read -r name exe; do
    [ -n "$name" ] || continue
    cp "$exe" "$PACK/tests/$name"
    n=$((n + 1))
done < <(list_gpu_tests)
if [ "$n" -eq 0 ]; then
    echo "gpu-pack: no tests/gpu_* executables found" >&2
    exit 1
fi
cp scripts/gpu-run.sh "$PACK/gpu-run.sh"
cp -r scripts/shapes "$PACK/shapes"
# Shapes of the peer table (docs reference.md, section 2), run after the default set.
cat > "$PACK/shapes.txt" <<'SHAPES'
# M x N x K (cuBLAS names), peer shapes measured with cuBLAS on the H200
8192x8192x8192
127x4095x4096
1000x3000x4000
128x14336x4096
16x4096x4096
SHAPES

if [ -n "${CUBINS:-}" ]; then
    bash scripts/gpu-cubins.sh target/release/deepgemm-bench "$CUBINS" "$PACK/cubins.txz"
fi

# Line tables are most of each binary's size; function names (for backtraces) stay.
strip --strip-debug "$PACK/deepgemm-bench" "$PACK/libdeepgemm.so" "$PACK"/tests/*
size_mib=$(( $(du -sb "$PACK" | cut -f1) / 1048576 ))
echo "== packed $PACK: deepgemm-bench, libdeepgemm.so, $n test executables ($(ls "$PACK/tests" | tr '\n' ' ')), ${size_mib} MiB"
if [ "$size_mib" -ge "$LIMIT_MIB" ]; then
    echo "gpu-pack: $PACK is ${size_mib} MiB, over ${LIMIT_MIB} MiB" >&2
    exit 1
fi
