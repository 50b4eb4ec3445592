#!/usr/bin/env bash
# Session 63, the one call its device time allowed (~9.5 min; refused starts took half the
# budget): the C-API checks of session 62's descriptor rewrite (configured / reused algos,
# gpu_blas, gpu_multi with the green context, api_device, gpu_autotune), a few gpu_matmul groups,
# then measurements of main on shapes no issue names (fresh general sets, tiny shapes, odd
# leading dimensions on the portable kernel); 63a (tf32 split rule) stays owed.
#     here:  bash scripts/gpu-pack.sh
#     there: timeout 590 bash scripts/gpu-session63d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
T=.gpu/tests
nvidia-smi -L
precompile_all
timeout 100 $T/gpu_matmul --ignored --test-threads=1 --nocapture configured_algos \
    heuristic_algos_reused_on_other_shapes >"$OUT/configured.txt" 2>&1
echo "configured + reused algos rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/configured.txt")"
grep -E "^group |FAIL|panicked" "$OUT/configured.txt" | head -8
for t in gpu_blas gpu_multi api_device gpu_autotune; do
    timeout 60 $T/$t --ignored --test-threads=1 --nocapture >"$OUT/$t.txt" 2>&1
    echo "$t rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/$t.txt" | tail -1)"
    grep -m4 -E "FAIL|panicked" "$OUT/$t.txt"
done
grep -E "^green|planned for" "$OUT/gpu_multi.txt" | head -3
for t in shapes_types_transposes alpha_beta_in_place epilogues strided_batch pointer_mode_device \
    null_algo_no_workspace_default_stream; do
    left=$((300 - SECONDS))
    [ $left -gt 15 ] || { echo "$t: skipped (${SECONDS}s)"; continue; }
    timeout $left $T/gpu_matmul --ignored --test-threads=1 --nocapture --exact "$t" >"$OUT/m-$t.txt" 2>&1
    echo "$t rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/m-$t.txt")"
    grep -m3 -E "FAIL|panicked" "$OUT/m-$t.txt"
done
S=.gpu/shapes
run() { [ $((575 - SECONDS)) -gt 25 ] && bench "$@" || echo "$1: skipped (${SECONDS}s)"; }
run gen-TN --layout TN --shapes $S/general-63-aligned.txt
run gen-NN --layout NN --shapes $S/general-63-aligned.txt
run rag-TN --layout TN --shapes $S/general-63-ragged.txt
run tiny-TN --layout TN --shapes $S/tiny-63.txt
run odd-tf32-NT --dtype tf32 --layout NT --shapes $S/oddld-63.txt
DEEPGEMM_KERNELS=portable run odd-tf32-NT-portable --dtype tf32 --layout NT --shapes $S/oddld-63.txt
run gen-NT --layout NT --shapes $S/general-63-aligned.txt
run gen-TT --layout TT --shapes $S/general-63-aligned.txt
finish
