#!/usr/bin/env bash
# Session 57, first call (~4 min with a devcache). In priority order:
# 1. Session 56's owed run (scripts/gpu-session56d.sh): gpu_pack's transposing-copy cases past
#    a wave of CTAs and tf32 NT's exact copy bytes. Predicted: all pass.
# 2. tf32 8192³ (issue 3's tf32 target, 0.997x cuBLASLt): every candidate and cuBLASLt timed
#    interleaved (`--sweep --interleave`, new this session), TN / NN / NT, two rounds: is the
#    Stream-K hybrid (m128n256 sk200x132) or data-parallel m128n256 the faster? Sequential
#    runs could not tell (56c: 5-8% drift). Predicted: within 2% of each other; cuBLASLt
#    within 1% of the model's first.
# 3. The near misses, interleaved with cuBLASLt: 1000x3000x4000 TN (issue 4: 0.98), bias + GELU
#    4096x14336x4096 (0.968), set A TN (0.995): does any candidate beat the first one by 1%+?
#    Predicted: no (session 48's sweep of large TN shapes: the fastest candidate 1% over the
#    model's first on average).
#     here:  bash scripts/gpu-pack.sh; cp a devcache (e.g. /work/keep/devcache-ff9abc4.txz) to .gpu/cubins.txz
#     there: timeout 590 bash scripts/gpu-session57a.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
timeout 240 .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture \
    pack_kernel_copies_transposed tf32_nt >"$OUT/pack-56d.txt" 2>&1
echo "== gpu_pack rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/pack-56d.txt")"
grep -m8 -E "FAIL|panicked" "$OUT/pack-56d.txt"
for r in 1 2; do
    for l in TN NN NT; do
        sweep tf32-$l-$r 90 --interleave --dtype tf32 --layout $l --shape 8192x8192x8192
    done
done
sweep 1000x3000x4000 60 --interleave --iters 50 --shape 1000x3000x4000
sweep gelu 60 --interleave --epilogue gelu_bias --shape 4096x14336x4096
sweep set-a 150 --interleave --shapes .gpu/shapes/set-a.txt
grep -h -E "^[0-9]|sweep" "$OUT"/sweep-tf32-*.txt | head -60
finish
