#!/usr/bin/env bash
# Session 16, fourth call (branch next/fill8, final plans: the fill widths in steps of 8, the
# Stream-K fixup capped where the Stream-K tiles are at most 1.25 a CTA, the Stream-K phase
# charged 4% over the data-parallel rate). The tables against cuBLASLt at this build (wave
# set, 32 random shapes, set A), and the three near-ties the factor decides, timed three
# times each in one process (--sweep narrowed to the two plans): 2176^2 x 8192 (128x152
# data-parallel, now chosen, against 128x248 sk153: 16a and 16b disagreed by 10%),
# 3456x4881x8192 (128x208 against 128x248 sk144) and 4096x7168x16384 (128x256 data-parallel,
# now chosen, against main's 128x256 sk236).
# Predicted: wave set geomean ~0.97 (16b 0.971), random ~0.965 (16b 0.962), set A ~0.996
# (16b 0.996); the near-ties within 2% either way, the chosen one ahead on two of three.
#     here:  git checkout next/fill8 && bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session16d.sh  (.gpu carried, ~330 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
bench waves --shapes .gpu/shapes/waves.txt
bench random --shapes .gpu/shapes/random.txt
bench set-a --shapes .gpu/shapes/set-a.txt
for r in 1 2 3; do
    for c in "2176x2176x8192 m128n152k64_s5_c1x1,m128n248k64_s4_c1x1" \
             "3456x4881x8192 m128n208k64_s4_c1x1,m128n248k64_s4_c1x1" \
             "4096x7168x16384 m128n256k64_s4_c1x1"; do
        set -- $c
        DEEPGEMM_VARIANT=$2 timeout 60 "$B" --sweep --no-cublas --check none --iters 30 --warmup 5 --shape $1 >"$OUT/tie-$1-$r.txt" 2>&1
        echo "== tie $1 run $r rc=$? ${SECONDS}s"
        grep -E "sweep #" "$OUT/tie-$1-$r.txt" | sed -e 's/(vs the timed.*//' -e 's/dg_sm90_bf16_bf16_tn_//' | grep -v portable | head -4 | cut -c1-120
    done
done
finish
