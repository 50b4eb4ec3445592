#!/usr/bin/env bash
# Session 16, first call (branch next/fill8): tile widths in steps of 8 from 136 to 248
# (sm90::FILL_TILES; 8-column TMA stores and 8-column general-epilogue rounds for the widths 8
# past a multiple of 16). Correctness first (the direct cases of every new width, then the
# gpu_matmul grid narrowed to the new widths, data-parallel and Stream-K), then the wave set
# against cuBLASLt and main's bench (.gpu/old) in the same run, and every candidate of the wave
# set timed (--sweep) to refit the model's width efficiencies.
# Predicted (model, `--plans`): 1664^2 x 8192 176 -> 168, 64.1 -> ~62 us (-3.4%); 2176^2
# 160 -> 152, 116.7 -> ~112.5 (-3.6%); 3200^2 224 -> 216, 229 -> ~222.6 (-2.8%);
# 6784x1280x8192 moves from 128x256 Stream-K (measured 189 us) to 128x184 data-parallel (model
# 198.5 against 205.7; the model's Stream-K constants are known to be high there, so this one
# may lose).
#     here:  git checkout next/fill8 && bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session16a.sh  (.gpu carried, ~450 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
NEW=n136k,n152k,n168k,n184k,n200k,n216k,n232k,n248k
precompile_all
precompile_old
DEEPGEMM_SM90_VARIANTS=$NEW direct || { finish; exit 1; }
DEEPGEMM_VARIANT=$NEW timeout 170 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul-dp.txt" 2>&1
echo "gpu_matmul new widths rc=$? ${SECONDS}s: $(groups "$OUT/matmul-dp.txt")"
DEEPGEMM_VARIANT=$NEW DEEPGEMM_DECOMPOSITION=streamk timeout 170 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul-sk.txt" 2>&1
echo "gpu_matmul new widths Stream-K rc=$? ${SECONDS}s: $(groups "$OUT/matmul-sk.txt")"
bench waves --shapes .gpu/shapes/waves.txt
bench_old waves-old --no-cublas --shapes .gpu/shapes/waves.txt
timeout 150 "$B" --sweep --no-cublas --iters 20 --warmup 3 --shapes .gpu/shapes/waves.txt >"$OUT/sweep-waves.txt" 2>&1
echo "== sweep waves rc=$? ${SECONDS}s"
grep -E "sweep #" "$OUT/sweep-waves.txt" | sed -e 's/(vs the timed.*//' -e 's/dg_sm90_bf16_bf16_tn_//' | cut -c1-140
finish
