#!/usr/bin/env bash
# Session 43, call h (~1 min): the warp stall reasons (Nsight Compute WarpStateStats, raw page:
# `smsp__average_warps_issue_stalled_*_per_issue_active`) of deepgemm's 64-wide tiles and
# cuBLASLt's 64x64 at 928x368x3968 TN: which wait holds a k-step (the full barrier, i.e. the
# loads; the wgmma wait; the empty barrier, i.e. the producer) where `43f` found deepgemm's
# tensor pipes busy half as much. Read with: grep issue_stalled $OUT/ncu-raw.txt.
#     there: bash scripts/gpu-session43h.sh   (any pack with the default plans)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
for mode in default solo; do
    echo "== 928x368x3968 $mode" >>"$OUT/ncu-raw.txt"
    if [ $mode = solo ]; then export DEEPGEMM_SOLO=1 DEEPGEMM_VARIANT=m64n64k64_s5; fi
    timeout 60 "$NCU" --clock-control none -k 'regex:^(dg_|nvjet)' -c 2 --section WarpStateStats --page raw \
        .gpu/deepgemm-bench --shape 928x368x3968 --layout TN --iters 1 --warmup 0 --check none >>"$OUT/ncu-raw.txt" 2>&1
    echo "== ncu $mode rc=$? ${SECONDS}s"
    unset DEEPGEMM_SOLO DEEPGEMM_VARIANT
done
# Where the stalls sit (sampled per SASS line): the details page of SourceCounters.
for mode in default solo; do
    echo "== 928x368x3968 $mode" >>"$OUT/ncu-src.txt"
    if [ $mode = solo ]; then export DEEPGEMM_SOLO=1 DEEPGEMM_VARIANT=m64n64k64_s5; fi
    timeout 90 "$NCU" --clock-control none -k 'regex:^(dg_|nvjet)' -c 2 --section SourceCounters --section InstructionStats \
        .gpu/deepgemm-bench --shape 928x368x3968 --layout TN --iters 1 --warmup 0 --check none >>"$OUT/ncu-src.txt" 2>&1
    echo "== ncu src $mode rc=$? ${SECONDS}s"
    unset DEEPGEMM_SOLO DEEPGEMM_VARIANT
done
grep -E "^  [a-z_]+.*Context|issue_stalled_(barrier|long_scoreboard|wait|math_pipe_throttle|mio_throttle|short_scoreboard|sleeping|membar|lg_throttle|dispatch_stall|no_instruction|branch_resolving|selected|not_selected|misc|drain|tex_throttle)_per_issue_active" "$OUT/ncu-raw.txt" | sed 's/  */ /g' | cut -c1-120
finish
