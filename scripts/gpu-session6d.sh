#!/usr/bin/env bash
# Fourth GPU call of session 6: the kernel's end waits only for its TMA stores' shared-memory
# reads (cp.async.bulk.wait_group.read), no longer for their global writes. Every direct
# nvrtc_sm90 case (the TMA-store epilogue of every tile, layout and 16-bit type), the one-tile
# launch's duration and SM-active cycles under Nsight Compute, and a few shapes against cuBLASLt.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session6d.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEEPGEMM_SM90_VARIANTS=_m128n timeout 100 .gpu/tests/nvrtc_sm90 --ignored --nocapture --test-threads=1 sm90_kernel_matches_reference_on_gpu >"$OUT/sm90.txt" 2>&1
echo "nvrtc_sm90 rc=$? ${SECONDS}s: $(grep -E 'test result|cases$' "$OUT/sm90.txt" | tr '\n' ' ')"
grep -E "FAIL|panicked|max scaled err [1-9]" "$OUT/sm90.txt" | head -5 | cut -c1-250
$B --precompile bf16_bf16_tn_m128n128k64_s6_c1x1,bf16_bf16_tn_m128n16k,bf16_bf16_tn_m128n256k64_s4_c1x1 >/dev/null
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
timeout 40 "$NCU" --metrics gpu__time_duration.sum,sm__cycles_active.max .gpu/deepgemm-bench --shape 1x64x64 --shape 16x4096x4096 --iters 2 --warmup 1 --check none 2>&1 |
    grep -E "^  [a-zA-Z_]|duration|cycles_active" | sed -e 's/(\([0-9]*\), \([0-9]*\), 1)x.*/grid \1x\2/' -e 's/void cublasLt::\(splitKreduce_kernel\).*/\1/' | tr -s ' ' | paste -d' ' - - - | cut -c1-150
timeout 40 $B --shape 1x64x64 --shape 128x128x128 --shape 16x4096x4096 --shape 4096x4096x4096 --shape 8192x8192x1024 --shape 2048x2048x2048 >"$OUT/bench.txt" 2>&1
echo "bench rc=$? ${SECONDS}s"; grep -E "^[0-9]+x|^ratio" "$OUT/bench.txt" | awk '{print $1, $5, $7, $9}' | tr '\n' ';'; echo
echo "done ${SECONDS}s"
