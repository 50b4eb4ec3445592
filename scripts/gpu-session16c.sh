#!/usr/bin/env bash
# Session 16, third call (branch next/fill8, the Stream-K fixup cap now only where the
# Stream-K tiles are at most 1.25 a CTA, which returns 4096x8192x8192 to main's data-parallel
# plan). A fair before/after: deepgemm alone, this build and main's (.gpu/old) alternating
# twice, on the 16 shapes whose plan changed (scripts/shapes/fill8-changed.txt); 16b compared
# a run with cuBLASLt against one without, which put same-plan shapes 3-5% apart. And the
# sweeps that decide two Stream-K choices: 4096x7168x16384 (set A; main's 128x256 sk236
# against the branch's 128x248 sk136, model 0.3% apart) and 3456x4881x8192 (128x248 sk144
# against 128x208 data-parallel: 16b's sweep 366.4 against 360.6 us).
# Predicted: the changed shapes 0-3.5% faster each (1664^2 -3.4%, 2432x1792 -5%, 448x4480
# ~0: 16b showed 136 no faster than 144), 3456x4881 +-2%, geomean ~-1.5%.
#     here:  git checkout next/fill8 && bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session16c.sh  (.gpu carried, ~250 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
K=m128n256k64_s4_c1x1,m128n248k64_s4_c1x1,m128n208k64_s4_c1x1
# No precompile: the ~12 kernels these plans use compile on first use (~2 s each) in the warm-up.
F=.gpu/shapes/fill8-changed.txt
alternate 2 --no-cublas --check none --shapes $F
for s in 4096x7168x16384 3456x4881x8192; do
    DEEPGEMM_VARIANT=$K timeout 100 "$B" --sweep --no-cublas --iters 20 --warmup 3 --shape $s >"$OUT/sweep-$s.txt" 2>&1
    echo "== sweep $s rc=$? ${SECONDS}s"
    grep -E "sweep #" "$OUT/sweep-$s.txt" | sed -e 's/(vs the timed.*//' -e 's/dg_sm90_bf16_bf16_tn_//' | cut -c1-120
done
finish
