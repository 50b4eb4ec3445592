#!/usr/bin/env bash
# Closing GPU call of session 4 (k-aligned Stream-K, coalesced partials, refitted model,
# vectorised pack kernel): gpu_pack, the whole gpu_matmul grid (model's choices) and its
# packing groups under forced Stream-K, then set A, the wave, cliff (160 and 32 MiB),
# small-M and small-N sets, and the pack kernels' durations at 4097^3 under Nsight Compute.
#     here:  bash scripts/gpu-pack.sh        there: bash scripts/gpu-session4.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
if [ -z "${SKIP_TESTS:-}" ]; then
    timeout 150 .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture >"$OUT/pack.txt" 2>&1
    echo "gpu_pack rc=$? ${SECONDS}s: $(grep -E 'test result' "$OUT/pack.txt")"; grep -E "FAIL|panicked" "$OUT/pack.txt" | head -5
    timeout 200 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
    echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
    DEEPGEMM_DECOMPOSITION=streamk timeout 100 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture large strided >"$OUT/matmul-sk.txt" 2>&1
    echo "gpu_matmul streamk large strided rc=$? ${SECONDS}s: $(groups "$OUT/matmul-sk.txt")"
    (cd "$OUT" && tar czf tests.tgz matmul*.txt pack.txt && rm -f matmul*.txt pack.txt)
fi
[ -n "${ONLY_TESTS:-}" ] && exit 0
for set in set-a waves small-m small-n; do
    $B --shapes .gpu/shapes/$set.txt --json "$OUT/$set.json" >"$OUT/$set.txt" 2>&1
    echo "$set rc=$? ${SECONDS}s"
done
$B --shapes .gpu/shapes/cliffs.txt --workspace-mib 160 --json "$OUT/cliffs.json" >"$OUT/cliffs.txt" 2>&1
echo "== 32 MiB" >>"$OUT/cliffs.txt"
$B --shapes .gpu/shapes/cliffs.txt --json "$OUT/cliffs32.json" >>"$OUT/cliffs.txt" 2>&1
echo "cliffs ${SECONDS}s"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
"$NCU" --clock-control none -k regex:dg_ -c 4 --section SpeedOfLight \
    $B --shape 4097x4097x4097 --workspace-mib 160 --iters 1 --warmup 0 --no-cublas --check none \
    >"$OUT/ncu-pack.txt" 2>&1
grep -E "^  dg_|Duration|DRAM Throughput" "$OUT/ncu-pack.txt" | head -16
for f in set-a waves small-m small-n cliffs; do
    echo "== $f"; grep -E "^[0-9]+x[0-9]+x[0-9]+ |^== " "$OUT/$f.txt" | awk '{print $1, $5, $6, $7, $8, $9, $12}'
done
