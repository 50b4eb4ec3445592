#!/usr/bin/env bash
# Session 62, first call (~9.5 min): what session 61 changed without a GPU, run on one.
# 1. scripts/gpu-session61b.sh's API tests (a heuristic algo reused on other m runs its
#    configuration; configured algos of every family incl. tf32 TN's solo; the heuristic
#    during a GLOBAL capture tunes and the capture survives);
# 2. the other small GPU executables (gpu_blas: GemmEx's stream+workspace read together;
#    gpu_multi; gpu_harness; registry: compile_arch; api_device);
# 3. PyTorch under the preload (per-handle workspace slots, Failed not forwarded);
# 4. as the time goes, gpu_matmul's grid groups under DEEPGEMM_SOLO=1.
# Expect 0 failed everywhere; the preload at >= 90% substituted, outputs within tolerance.
#     here:  bash scripts/gpu-pack.sh && cargo build --release -p deepgemm-preload &&
#            cp target/release/libdeepgemm_preload.so .gpu/ && strip .gpu/libdeepgemm_preload.so
#     there: timeout 590 bash scripts/gpu-session62a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
T=.gpu/tests
nvidia-smi -L
timeout 200 $T/gpu_matmul --ignored --test-threads=1 --nocapture configured_algos \
    heuristic_algos_reused_on_other_shapes >"$OUT/configured.txt" 2>&1
echo "configured + reused algos rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/configured.txt")"
grep -E "^group |FAIL|panicked" "$OUT/configured.txt" | head -8
timeout 120 $T/gpu_autotune --ignored --test-threads=1 --nocapture >"$OUT/autotune.txt" 2>&1
echo "autotune rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/autotune.txt" | tail -1)"
grep -E "^group |FAIL|panicked|lines in the table" "$OUT/autotune.txt" | head -8
for t in gpu_blas gpu_multi gpu_harness registry api_device; do
    timeout 90 $T/$t --ignored --test-threads=1 --nocapture >"$OUT/$t.txt" 2>&1
    echo "$t rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/$t.txt" | tail -1)"
    grep -m4 -E "FAIL|panicked" "$OUT/$t.txt"
done
if [ -f .gpu/libdeepgemm_preload.so ]; then
    mkdir -p "$OUT/preload"
    OUT="$OUT/preload" timeout 150 bash scripts/preload/run.sh "$PWD/.gpu/libdeepgemm_preload.so" >"$OUT/preload.txt" 2>&1
    echo "preload rc=$? ${SECONDS}s"; tail -22 "$OUT/preload.txt"
fi
for t in shapes_types_transposes epilogues alpha_beta_in_place; do
    left=$((560 - SECONDS))
    [ $left -gt 60 ] || { echo "solo $t: skipped (${SECONDS}s)"; continue; }
    DEEPGEMM_SOLO=1 timeout $left $T/gpu_matmul --ignored --test-threads=1 --nocapture \
        --exact "$t" >"$OUT/solo-$t.txt" 2>&1
    echo "solo $t rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/solo-$t.txt")"
    grep -m5 -E "^group |FAIL|panicked" "$OUT/solo-$t.txt"
done
finish preload
