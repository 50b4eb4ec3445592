#!/usr/bin/env bash
# Prepared in session 57 for session 58: two calls, PART=tf32 then PART=bf16 (~4 min each with a
# devcache; PART=all runs both, over the 600 s call limit). Out of sample for
# wip/no-small-phase.patch, which leaves the hybrid form that splits only the last partial
# wave's tiles over every CTA (`sk(tiles % sms)`) out of the automatic list (over 414 pairs of
# kept sweeps it ran 1.04-1.10x its twin's time: scripts/hybrid-pairs.py).
# On 160 fresh shapes (scripts/shapes/fresh-58.txt) it moves 97 shape-layouts (tf32 TN 20, NN
# 21; bf16 TN 12, NN 9, TT 17, NT 18: scripts/shapes/moved-58-*.txt); main's own candidate
# lists hold both the old and the new first plan of all 97, so main's build alone times them,
# every candidate and cuBLASLt interleaved. Score:
#     python3 scripts/moves-timed.py scripts/shapes/moved-58-plan-diff.txt sweep-moved58-*.txt -v
# Predicted: new / old 0.95-0.98 in every group, no move over 1.05 but a few (NT
# 3624x2688x9944-like shapes, where the small form is the measured plan).
#     here:  bash scripts/gpu-pack.sh (main's build); a devcache as .gpu/cubins.txz
#     there: PART=tf32 timeout 590 bash scripts/gpu-session58a.sh   (then PART=bf16)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
P=${PART:?PART=tf32, bf16 or all}
if [ "$P" != bf16 ]; then
    for l in TN NN; do
        sweep moved58-tf32-$l 150 --interleave --iters 12 --dtype tf32 --layout $l \
            --shapes .gpu/shapes/moved-58-tf32-$(echo $l | tr A-Z a-z).txt
    done
fi
if [ "$P" != tf32 ]; then
    for l in NT TT TN NN; do
        sweep moved58-bf16-$l 120 --interleave --iters 12 --layout $l \
            --shapes .gpu/shapes/moved-58-bf16-$(echo $l | tr A-Z a-z).txt
    done
fi
finish
