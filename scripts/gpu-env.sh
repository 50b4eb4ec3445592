# Sourced by the scripts/gpu-*.sh that run on the GPU machine (from the repo root, .gpu carried):
# the output folder ($OUT, what the device tool brings back), cuBLAS on the loader path, one
# kernel cache for the session's calls, and `groups LOG` (a gpu_matmul log's pass/fail tally and
# its first failures).
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export DEEPGEMM_CACHE_DIR=${DEEPGEMM_CACHE_DIR:-/tmp/deepgemm-session-cache}
groups() { grep -E "^group .*passed" "$1" | awk '{p += $(NF-5); f += $(NF-3)} END {printf "%d passed, %d failed\n", p, f}'; grep -E "^  FAIL" "$1" | head -5; }
