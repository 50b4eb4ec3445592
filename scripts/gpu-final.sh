#!/usr/bin/env bash
# Closing GPU call of a session whose earlier calls covered set A and the small-m sets: the
# whole gpu_matmul grid with the model's choices, the issue-4 cliff and wave sets and the host
# overhead, then gpu_pack (packing and D copies, whose candidates share the ranking).
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
timeout 200 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
$B --shapes .gpu/shapes/cliffs.txt --workspace-mib 160 --json "$OUT/cliffs.json" >"$OUT/bench.txt" 2>&1
$B --shapes .gpu/shapes/waves.txt >>"$OUT/bench.txt" 2>&1
echo "== host overhead" >>"$OUT/bench.txt"
timeout 20 $B --host-overhead >>"$OUT/bench.txt" 2>&1
echo "bench ${SECONDS}s"
grep -E "^[0-9]+x[0-9]+x[0-9]+ |^== |^host overhead|^  [a-z]" "$OUT/bench.txt" | head -40
timeout 150 .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture >"$OUT/pack.txt" 2>&1
echo "gpu_pack rc=$? ${SECONDS}s: $(grep -E 'test result' "$OUT/pack.txt")"
(cd "$OUT" && tar czf tests.tgz matmul.txt pack.txt && rm -f matmul.txt pack.txt)
