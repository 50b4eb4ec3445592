#!/usr/bin/env bash
# Session 26 (~550 s): `26d` again after its fix (a moved tile's box must still cover its own
# rows / columns: moved back by the overhang's whole 8-element groups, at most 7 left out of
# bounds; `26d` rounded up and left the last columns unwritten), then one alternation of
# `26e`'s timing (new against fbfd1ba, no cuBLASLt) if everything passed.
#   Predicted: everything passes; worst-25b ~0.90, random-21d ~0.98, set-a and waves ~1.00.
# The build: fbfd1ba with wip/edge-tiles-8.patch (in git at f071503) applied.
#     here:  git show f071503:wip/edge-tiles-8.patch | git apply && bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh fbfd1ba
#     there: bash scripts/gpu-session26f.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
direct || { finish; exit 1; }
timeout 300 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/grid.txt" 2>&1
echo "== grid rc=$? ${SECONDS}s: $(groups "$OUT/grid.txt")"
grep -q "^test result: ok" "$OUT/grid.txt" || { finish; exit 1; }
DEEPGEMM_DECOMPOSITION=streamk timeout 200 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/grid-streamk.txt" 2>&1
echo "== grid streamk rc=$? ${SECONDS}s: $(groups "$OUT/grid-streamk.txt")"
grep -q "^test result: ok" "$OUT/grid-streamk.txt" || { finish; exit 1; }
S=.gpu/shapes
alternate 1 --no-cublas --check none --shapes $S/worst-25b.txt --shapes $S/random-21d.txt --shapes $S/set-a.txt --shapes $S/waves.txt
finish
