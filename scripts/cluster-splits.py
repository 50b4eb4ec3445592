#!/usr/bin/env python3
"""Even splits over multicast clusters of 2 x 1, from sweep logs (no GPU needed).

    python3 scripts/cluster-splits.py scripts/sweeps/59e/*.txt

For every swept shape, the `_c2x1+sk{units}x{clusters}` candidates of each tile width, by
clusters a unit (`per`, rounded up): modelled / measured us and their difference `d`, then
one line a candidate with the cluster count. Session 59 (`59e`, tf32 NN / TT, H100) read from
it: `d` flat (~10-13 us) up to ~48 clusters, rising 0.3-0.9 us a cluster past that
(536x232x13832 NN: 48 clusters 50.7 us, 66 58.7; modelled 39.5, 37.9), so the model's
first plan (the most clusters) ran up to 16% over the fastest of them. A charge per
contributor (1.5 us) fitted it poorly (flat, not linear, below ~48) and moved 369 kept
shape-layouts; not merged.
"""
import math
import re
import sys
from collections import defaultdict

rows = []
for f in sys.argv[1:]:
    cur = None
    for line in open(f):
        m = re.match(r"\[\d+/\d+\] (\S+) (\w\w)", line)
        if m:
            cur = (m.group(1), m.group(2))
            continue
        m = re.search(r"sweep #(\d+)\s+model\s+([\d.]+) us\s+measured\s+([\d.]+) us.*?(dg_sm90_\S+)", line)
        if m and cur:
            rows.append((cur, float(m.group(2)), float(m.group(3)), m.group(4)))
by = defaultdict(list)
for (shape, lay), mod, meas, name in rows:
    mm = re.search(r"m(\d+)n(\d+)k\d+_s\d+_c(\d)x(\d)(\+swap)?\+sk(\d+)x(\d+)$", name)
    if not mm:
        continue
    bm, bn, cm, cn, sw, skt, skc = mm.groups()
    if cm != '2' or cn != '1':
        continue
    per = math.ceil(int(skc) / int(skt))
    by[(shape, lay, bn, sw)].append((per, mod, meas, int(skt), int(skc)))
for k, v in by.items():
    if len(v) < 2:
        continue
    v.sort()
    print(k, ' '.join(f"[{p} {mo:.1f}/{me:.1f} d{me - mo:+.1f}]" for p, mo, me, _, _ in v))
print("---- by clusters")
seen = set()
for k, v in sorted(by.items()):
    for p, mo, me, skt, skc in sorted(v, key=lambda r: r[4]):
        if (k, skc) in seen:
            continue
        seen.add((k, skc))
        print(f"{k[0]:16} {k[1]} n{k[2]:4} units {skt:4} clusters {skc:4} per {p:3} d {me - mo:+6.1f} measured {me:6.1f}")
