# Sourced by scripts/test.sh and scripts/gpu-pack.sh: NVRTC for compiling kernels without a GPU
# or a CUDA toolkit. Installs the nvidia-cuda-nvrtc wheel from PyPI into .deps/nvrtc on first
# use (libnvrtc.so.13 and its builtins) and puts it on LD_LIBRARY_PATH. Run from the repo root.
NVRTC_VERSION=13.0.88
NVRTC_LIB="$PWD/.deps/nvrtc/nvidia/cu13/lib"
if [ ! -e "$NVRTC_LIB/libnvrtc.so.13" ]; then
  echo "== installing nvidia-cuda-nvrtc==$NVRTC_VERSION into $PWD/.deps/nvrtc"
  python3 -m pip install --quiet --disable-pip-version-check --no-deps \
    --target "$PWD/.deps/nvrtc" "nvidia-cuda-nvrtc==$NVRTC_VERSION"
fi
export LD_LIBRARY_PATH="$NVRTC_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
