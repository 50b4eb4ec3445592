#!/usr/bin/env bash
# Owed from session 56 (no device time left after 56a-c; ~1 min with a devcache): the tests
# its second review strengthened, not yet run on a GPU: gpu_pack pack_kernel_copies_transposed
# with two cases of more tiles than a wave of CTAs (the kernel's grid-stride loop, across
# batches), and tf32_nt_runs_on_a_transposed_copy with each plan's copies checked exactly
# against the heuristic's workspace and the log. Predicted: all pass (85 and 20 cases).
#     here:  bash scripts/gpu-pack.sh  (cp a devcache to .gpu/cubins.txz)
#     there: timeout 300 bash scripts/gpu-session56d.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
timeout 240 .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture \
    pack_kernel_copies_transposed tf32_nt >"$OUT/pack-56d.txt" 2>&1
echo "== gpu_pack rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/pack-56d.txt")"
grep -m8 -E "FAIL|panicked|passed" "$OUT/pack-56d.txt"
finish
