#!/usr/bin/env bash
# Session 74, first call (~9.5 min): the GPU checks owed since session 73's review fixes (the
# preload's one-library lookup, Init-in-place / Destroy through the C API's address registry,
# misaligned object pointers, grid clamps, the autotune table's reads and appends): the C-API
# tests, PyTorch under the preload, then gpu_matmul's default groups while time is left.
# Expect 0 failed everywhere; the preload >= 90% substituted, every output within tolerance.
#     here:  CUBINS=... bash scripts/gpu-pack.sh (73a's header) && cargo build --release -p deepgemm-preload &&
#            cp target/release/libdeepgemm_preload.so .gpu/ && strip .gpu/libdeepgemm_preload.so
#     there: timeout 590 bash scripts/gpu-session74a.sh (DEADLINE=S for a shorter call)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEADLINE=${DEADLINE:-570}
T=.gpu/tests
nvidia-smi -L
for t in gpu_blas api_device gpu_autotune gpu_multi registry gpu_pack gpu_harness; do
    [ -x "$T/$t" ] || { echo "$t: not packed"; continue; }
    timeout 90 $T/$t --ignored --test-threads=1 --nocapture >"$OUT/$t.txt" 2>&1
    echo "$t rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/$t.txt" | tail -1)"
    grep -m4 -E "FAIL|panicked" "$OUT/$t.txt"
done
timeout 100 $T/gpu_matmul --ignored --test-threads=1 --nocapture configured_algos \
    heuristic_algos_reused_on_other_shapes >"$OUT/configured.txt" 2>&1
echo "configured + reused algos rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/configured.txt")"
grep -m4 -E "FAIL|panicked" "$OUT/configured.txt"
if [ -f .gpu/libdeepgemm_preload.so ]; then
    mkdir -p "$OUT/preload"
    OUT="$OUT/preload" timeout 200 bash scripts/preload/run.sh "$PWD/.gpu/libdeepgemm_preload.so" >"$OUT/preload.txt" 2>&1
    echo "preload rc=$? ${SECONDS}s"; tail -24 "$OUT/preload.txt"
fi
matmul_groups def "$DEADLINE" shapes_types_transposes tiles_past_the_edges alpha_beta_in_place epilogues \
    narrow_and_swapped orders_and_padding strided_batch pointer_mode_device large_shapes
finish preload
