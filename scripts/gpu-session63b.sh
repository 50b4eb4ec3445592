#!/usr/bin/env bash
# NOT RUN: session 63's device refused its starts; what this asked went into gpu-session63d.sh
# (which ran) and gpu-session63e.sh (owed).
# Session 63, first call (~9.5 min): session 62's descriptor rewrite (every Lt object a storage
# block of relaxed atomic cells; cuBLASLt's Init functions) and green-context cache (four
# contexts a thread) were CPU-tested only. Run on a GPU what goes through the C API's
# descriptors: configured / reused algos, gpu_blas, gpu_multi (green context), gpu_autotune,
# api_device, gpu_harness, registry, PyTorch under the preload, then gpu_matmul's groups by name
# as the time goes. Expect 0 failed everywhere, the preload >= 90% substituted.
#     here:  bash scripts/gpu-pack.sh && cargo build --release -p deepgemm-preload &&
#            cp target/release/libdeepgemm_preload.so .gpu/ && strip .gpu/libdeepgemm_preload.so
#     there: timeout 590 bash scripts/gpu-session63b.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
T=.gpu/tests
nvidia-smi -L
precompile_all
timeout 150 $T/gpu_matmul --ignored --test-threads=1 --nocapture configured_algos \
    heuristic_algos_reused_on_other_shapes >"$OUT/configured.txt" 2>&1
echo "configured + reused algos rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/configured.txt")"
grep -E "^group |FAIL|panicked" "$OUT/configured.txt" | head -8
for t in gpu_blas gpu_multi gpu_harness registry api_device gpu_autotune; do
    timeout 100 $T/$t --ignored --test-threads=1 --nocapture >"$OUT/$t.txt" 2>&1
    echo "$t rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/$t.txt" | tail -1)"
    grep -m4 -E "FAIL|panicked" "$OUT/$t.txt"
done
grep -E "^green|  log:.*planned for" "$OUT/gpu_multi.txt" | head -4
if [ -f .gpu/libdeepgemm_preload.so ]; then
    mkdir -p "$OUT/preload"
    OUT="$OUT/preload" timeout 120 bash scripts/preload/run.sh "$PWD/.gpu/libdeepgemm_preload.so" >"$OUT/preload.txt" 2>&1
    echo "preload rc=$? ${SECONDS}s"; tail -14 "$OUT/preload.txt"
fi
for t in shapes_types_transposes orders_and_padding alpha_beta_in_place epilogues strided_batch \
    pointer_mode_device k_zero beta_zero_ignores_c null_algo_no_workspace_default_stream \
    tiles_past_the_edges narrow_and_swapped transposed_orientation odd_d_in_place \
    swapped_bias_through_the_tma_store sm_count_target_matches_the_reference large_shapes; do
    left=$((570 - SECONDS))
    [ $left -gt 20 ] || { echo "$t: skipped (${SECONDS}s)"; continue; }
    timeout $left $T/gpu_matmul --ignored --test-threads=1 --nocapture --exact "$t" >"$OUT/m-$t.txt" 2>&1
    echo "$t rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/m-$t.txt")"
    grep -m3 -E "FAIL|panicked" "$OUT/m-$t.txt"
done
finish preload
