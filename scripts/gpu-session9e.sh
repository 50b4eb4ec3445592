#!/usr/bin/env bash
# Fifth GPU call of session 9, on branch next/down-lanes after the d_pays refit (a column-major
# odd D is stored down its columns, never copied; the copy stays for a row-major one): the
# packing tests (odd-D cases now row-major), the cliffs on their new plans (4095^3 and 4100^3:
# pack_ab and the general epilogue instead of pack_abd), and set A with main's bench
# (.gpu/old) in the same run (every kernel's general epilogue gained the new branch; the
# TMA-store path is untouched: expected equal within noise).
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session9e.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
precompile_old
timeout 120 .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture >"$OUT/pack.txt" 2>&1
echo "gpu_pack rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/pack.txt")"; grep -m5 -E "FAIL|panicked" "$OUT/pack.txt"
bench cliffs --shapes .gpu/shapes/cliffs.txt --workspace-mib 160
bench_old cliffs-main --shapes .gpu/shapes/cliffs.txt --workspace-mib 160 --no-cublas
bench set-a --shapes .gpu/shapes/set-a.txt
bench_old set-a-main --shapes .gpu/shapes/set-a.txt --no-cublas
(cd "$OUT" && tar czf tests.tgz pack.txt && rm -f pack.txt)
