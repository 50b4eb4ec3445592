#!/usr/bin/env bash
# The test command (README, and CI through .ci/run). Needs no GPU: installs the NVRTC wheel
# (a CPU-only compiler) so every kernel variant is compiled for sm_90a/sm_80/sm_75 and its
# ptxas report checked, then runs every CPU test. GPU tests are `#[ignore]`d here and run on
# the GPU machine through scripts/gpu-run.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/nvrtc-env.sh

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
