#!/usr/bin/env bash
# Second GPU script of session 10 (the first, 10a, is on branch next/across-lanes), on branch
# next/epi-wait: the TMA-store epilogue waits for the store two boxes back (wait_group.read 1,
# then a barrier) before writing a box, instead of for the store issued just before it
# (read 0), which made each of a 128x256 tile's four boxes per warpgroup wait for the previous
# box's TMA read. Predicted: the first tile's epilogue (DG_TRACE marks 4 -> 5 of consumer 0)
# ~2,900 -> ~1,200-1,500 cycles at 4096^3; 4096^3 ~-1.5%, 8192x8192x1024 and 4096x24576x1536
# ~-4-5% (16 and 24 k-steps a tile); set A geomean 0.987 -> ~1.01.
#     here:  bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session10b.sh  (.gpu carried)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
precompile_old
for s in 4096x4096x4096 8192x8192x1024; do
    trace "new $s" --shape $s
    B=$OLD_B DEEPGEMM_CACHE_DIR=/tmp/deepgemm-old-trace trace "main $s" --shape $s
done
timeout 150 .gpu/tests/nvrtc_sm90 --ignored --test-threads=1 --nocapture >"$OUT/direct.txt" 2>&1
echo "nvrtc_sm90 rc=$? ${SECONDS}s: $(grep -E '^test result' "$OUT/direct.txt")"; grep -m5 -E "FAIL|panicked" "$OUT/direct.txt"
bench set-a-new1 --shapes .gpu/shapes/set-a.txt --no-cublas
bench_old set-a-main1 --shapes .gpu/shapes/set-a.txt --no-cublas
bench set-a-new2 --shapes .gpu/shapes/set-a.txt --no-cublas
bench_old set-a-main2 --shapes .gpu/shapes/set-a.txt --no-cublas
bench set-a --shapes .gpu/shapes/set-a.txt
(cd "$OUT" && tar czf tests.tgz direct.txt && rm -f direct.txt)
