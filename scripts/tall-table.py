#!/usr/bin/env python3
"""Session 68: the tall tiles' sweeps against the default candidates' (gpu-session68b.sh).

usage: tall-table.py DIR [SET...]   (DIR holds sweep-only-SET.txt and sweep-def-SET.txt)
Per shape: the default candidates' fastest (measured, first plan's model), the tall ones'
fastest, each normalised by the cuBLASLt time interleaved in its own sweep (the two sweeps
run minutes apart), and the ring twin against its plain tall twin where both were timed.
"""
import math, re, sys
from collections import defaultdict

row = re.compile(r"sweep #(\d+)\s+model\s+([\d.]+) us\s+measured\s+([\d.]+) us.*?(dg_\S+)")
head = re.compile(r"^\[\d+/\d+\] (\d+x\d+x\d+) ")
cub = re.compile(r"sweep cuBLASLt, interleaved with the candidates: ([\d.]+) us")

def parse(path):
    out, cur = {}, None
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return out
    for l in lines:
        m = head.match(l)
        if m:
            cur = m.group(1)
            out[cur] = {"cands": [], "cublas": None}
            continue
        m = row.search(l)
        if m and cur:
            out[cur]["cands"].append((int(m.group(1)), float(m.group(2)), float(m.group(3)), m.group(4)))
            continue
        m = cub.search(l)
        if m and cur:
            out[cur]["cublas"] = float(m.group(1))
    return out

def short(n):
    return re.sub(r"dg_sm90_[a-z0-9]+_[a-z0-9]+_tn_", "", n)

d, sets = sys.argv[1], sys.argv[2:] or ["s1", "s2"]
ratios, rings = [], []
print(f"{'shape':<18} {'k%16':>4} {'default best':>34} {'us':>6} {'x cub':>6} {'tall best':>30} {'us':>6} {'x cub':>6} {'tall/def':>8}")
for s in sets:
    only, dflt = parse(f"{d}/sweep-only-{s}.txt"), parse(f"{d}/sweep-def-{s}.txt")
    for shape in dflt:
        if shape not in only:
            continue
        k = int(shape.split("x")[2])
        dc = [c for c in dflt[shape]["cands"] if not c[3].startswith("dg_portable")]
        tc = [c for c in only[shape]["cands"] if "_m192" in c[3]]
        if not dc or not tc or not dflt[shape]["cublas"] or not only[shape]["cublas"]:
            continue
        bd, bt = min(dc, key=lambda c: c[2]), min(tc, key=lambda c: c[2])
        first = dc[0]
        nd, nt = bd[2] / dflt[shape]["cublas"], bt[2] / only[shape]["cublas"]
        # the default's first plan (what runs today) against the tall tiles' best
        nf = first[2] / dflt[shape]["cublas"]
        ratios.append((shape, nt / nf, k % 16))
        print(f"{shape:<18} {k % 16:>4} {short(first[3]):>34} {first[2]:6.1f} {nf:6.3f} {short(bt[3]):>30} {bt[2]:6.1f} {nt:6.3f} {nt / nf:8.3f}")
        t = {c[3]: c[2] for c in tc}
        for n, us in t.items():
            if n.endswith("_re"):
                plain = re.sub(r"_s\d+_(c1x\d)_re$", r"_s\\d+_\1$", n)
                twins = [u for m, u in t.items() if re.match(plain, m)]
                if twins:
                    rings.append((shape, short(n), us / twins[0]))
g = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")
for cls, sel in (("all", lambda r: True), ("k = 8 mod 16", lambda r: r[2] == 8), ("k = 0 mod 16", lambda r: r[2] == 0)):
    xs = [r[1] for r in ratios if sel(r)]
    print(f"tall best / default first, {cls}: geomean {g(xs):.3f} over {len(xs)}, faster by 2%+ {sum(x < 0.98 for x in xs)}")
print(f"ring / plain tall twin: geomean {g([r[2] for r in rings]):.3f} over {len(rings)} pairs")
for r in sorted(rings, key=lambda r: r[2])[:3] + sorted(rings, key=lambda r: r[2])[-3:]:
    print("   ", *r)
