#!/usr/bin/env bash
# Session 16, second call (branch next/fill8 with the Stream-K fixup capped at a 128 x 128
# tile's cost, plan::streamk STREAMK_FIXUP_MAX_AREA). 16a measured every Stream-K plan on tiles
# 184-256 wide 14-22 us under the model, so the cap moves 2432x1792x8192 (128x128 sk134 ->
# 128x256 sk133, measured 104.8 -> 99.4 us there), 6784x1280x8192 (back to 128x256 sk133,
# 184.1 against 193.8 for 16a's 128x184) and, unmeasured, 2176^2 x 8192 (128x248 sk153),
# 3456x4881x8192 (128x248 sk144) and set A's 4096x8192x8192 (128x256 sk232, model 0.3% ahead
# of data-parallel) onto Stream-K.
# Predicted: the wave set's geomean against cuBLASLt 0.958 (session 13 and 16a) -> ~0.975
# (1664^2 -3%, 3200^2 -2%, 2432x1792 -5%, 6784x1280 as main); the random set ~1% faster in
# geomean (19 of 32 plans change width); set A unchanged but 4096x8192x8192 (+-1%).
# The sweeps check the three unmeasured Stream-K moves and 3200^2 on 128x256 (the model now
# has sk193 8% ahead of data-parallel; session 13 measured them equal).
#     here:  git checkout next/fill8 && bash scripts/gpu-pack.sh && bash scripts/gpu-pack-old.sh main
#     there: bash scripts/gpu-session16b.sh  (.gpu carried, ~350 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
precompile_old
sweep() {
    local name=$1; shift
    timeout 100 "$B" --sweep --no-cublas --iters 20 --warmup 3 "$@" >"$OUT/sweep-$name.txt" 2>&1
    echo "== sweep $name rc=$? ${SECONDS}s"
    grep -E "sweep #" "$OUT/sweep-$name.txt" | sed -e 's/(vs the timed.*//' -e 's/dg_sm90_bf16_bf16_tn_//' | cut -c1-120
}
DEEPGEMM_VARIANT=m128n256k64_s4_c1x1,m128n248k64,m128n216k64 sweep 3200 --shape 3200x3200x8192
sweep others --shape 2176x2176x8192 --shape 3456x4881x8192 --shape 4096x8192x8192
bench waves --shapes .gpu/shapes/waves.txt
bench_old waves-old --no-cublas --shapes .gpu/shapes/waves.txt
bench random --shapes .gpu/shapes/random.txt
bench_old random-old --no-cublas --shapes .gpu/shapes/random.txt
bench set-a --shapes .gpu/shapes/set-a.txt
bench_old set-a-old --no-cublas --shapes .gpu/shapes/set-a.txt
finish
