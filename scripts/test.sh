#!/usr/bin/env bash
# The test command (README, and CI through .ci/run). Needs no GPU: installs the NVRTC wheel
# (a CPU-only compiler) so every kernel variant is compiled for sm_90a/sm_80/sm_75 and its
# ptxas report checked, then runs every CPU test. GPU tests are `#[ignore]`d here and run on
# the GPU machine through scripts/gpu-run.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

NVRTC_VERSION=13.0.88
DEPS="$PWD/.deps"
NVRTC_LIB="$DEPS/nvrtc/nvidia/cu13/lib"
if [ ! -e "$NVRTC_LIB/libnvrtc.so.13" ]; then
  echo "== installing nvidia-cuda-nvrtc==$NVRTC_VERSION into $DEPS/nvrtc"
  python3 -m pip install --quiet --disable-pip-version-check --no-deps \
    --target "$DEPS/nvrtc" "nvidia-cuda-nvrtc==$NVRTC_VERSION"
fi
export LD_LIBRARY_PATH="$NVRTC_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# Tools for tests/install.rs (the installed library's CMake, pkg-config and Go consumers).
missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v go >/dev/null 2>&1 || missing+=(golang-go)
if [ ${#missing[@]} -gt 0 ]; then
  echo "== apt-get install ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo test"
cargo test --all-targets --jobs "$(nproc)" 2>&1
