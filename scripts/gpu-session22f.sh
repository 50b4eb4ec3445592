#!/usr/bin/env bash
# Session 22, after the slab listing fix (each block listed on its fastest packed plan that
# needs no workspace past its copies): gpu_pack's slab and workspace-limit groups on the GPU,
# then every other gpu_pack test while the time lasts.
#     here:  bash scripts/gpu-pack.sh;  there: bash scripts/gpu-session22f.sh (~150 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
for t in too_little_workspace_for_whole_copies_runs_in_blocks too_little_workspace_takes_the_portable_kernel odd_leading_dimensions_are_packed; do
    timeout 100 .gpu/tests/gpu_pack --ignored --exact $t --test-threads=1 --nocapture >"$OUT/pack-$t.txt" 2>&1
    echo "$t rc=$? ${SECONDS}s: $(groups "$OUT/pack-$t.txt") $(grep -E '^test result' "$OUT/pack-$t.txt")"
done
finish
