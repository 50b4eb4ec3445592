#!/usr/bin/env bash
# Issue 4's wave-quantisation check at main (~2-3 min): on each shape of
# scripts/shapes/waves.txt (M = N in {1664, 2176, 3200}, K = 8192, and 132k+1 tiles of 128x256),
# the same kernel forced data-parallel, all-Stream-K and as the hybrid (data-parallel waves +
# Stream-K; where a shape has none the forced run falls to the portable kernel: its column
# reads slow there, ignore it), deepgemm alone, two rounds; then
# the model's own plans against cuBLASLt. Target: Stream-K (the better of the two forms) >= 1.1x
# data-parallel on the same kernel. Last measured in session 25 (`25e`/`25h`, H200, older
# kernels: 3200² 1.11, 1664² 1.04 on 128x256 / 1.12 on 128x248, 2176² 1.46-1.48, the 132k+1
# shapes 1.22-1.67 on 128x256). The table at the end: each (shape, kernel), its best time
# per schedule over the rounds (us) and data-parallel over the better Stream-K form.
#     here:  bash scripts/gpu-pack.sh;  there: timeout 400 bash scripts/gpu-waves.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
S=.gpu/shapes/waves.txt
for r in 1 2; do
    for v in m128n256k64_s4_c1x1 m128n248k64_s4_c1x1 m128n256k64_s4_c2x1; do
        for dec in dp streamk hybrid; do
            DEEPGEMM_VARIANT=$v DEEPGEMM_DECOMPOSITION=$dec bench "w-$v-$dec-$r" --no-cublas \
                --check none --iters 20 --shapes $S
        done
    done
done
bench w-main --check sample --shapes $S
python3 - "$OUT" <<'PY'
import glob, os, re, sys
from collections import defaultdict
t = defaultdict(dict)
for f in glob.glob(os.path.join(sys.argv[1], "w-m*-*-[12].txt")):
    v, dec = re.match(r"w-(m\S+)-(dp|streamk|hybrid)-\d\.txt", os.path.basename(f)).groups()
    for line in open(f):
        m = re.match(r"^(\d+x\d+x\d+)\s+\w\w\s+\S+\s+\S+\s+([\d.]+)", line)
        if m:
            k = (m.group(1), v)
            t[k][dec] = min(t[k].get(dec, 9e9), float(m.group(2)))
print("shape variant dp sk hybrid best-stream-k/dp-speedup")
for (shape, v), d in sorted(t.items()):
    dp = d.get("dp"); sk = min(d.get("streamk", 9e9), d.get("hybrid", 9e9))
    print(shape, v, *(f"{d.get(x, float('nan')) * 1e3:.1f}" for x in ("dp", "streamk", "hybrid")),
          f"{dp / sk:.3f}" if dp and sk < 9e9 else "-")
PY
finish
