#!/usr/bin/env python3
"""Where the cost model is biased, by kernel family, from sweep logs (no GPU needed).

    python3 scripts/model-families.py scripts/sweeps/58a/*.txt [--min N] [--off F] [--show REGEX]

For every swept shape, each candidate's measured / modelled time is divided by the median of
that ratio over the shape's candidates (so the shape's own error, e.g. a machine's clock, cancels
out), and the quotients are grouped by family: input type, the kernel's layout, tile, cluster
shape and schedule (dp, sk = any Stream-K / split, + swap / pack / slab). Printed: the families
with at least --min members (default 4) whose median is more than --off (default 0.05) from 1,
with their quartiles; --off 0 prints them all. --show REGEX lists the members of the families
whose key matches, with the shape. A family far above 1 is slower than the model says next to
its peers (session 58: the 128 x 128 tile with an N-major B at 1.23-1.29 over 57c / 58a's large
shapes, the only one off by more than 8%; `MN_B_128_FACTOR`).

The model column is the one the logged build printed: after a model change, re-read only logs of
builds that have it, or the families it changed read stale.
"""
import re
import statistics as st
import sys
from collections import defaultdict

sys.path.insert(0, __import__('os').path.dirname(__file__))
from sweeplog import parse


def family(name):
    """(type, kernel layout, tile, cluster, schedule) of a `dg_sm90_...` name, or None."""
    m = re.match(r'dg_sm90_(\w+?)_\w+?_(tn|nn|tt|nt)_(m\d+n\d+)k\d+_s\d+_(c\dx\d)(\S*)', name)
    if not m:
        return None
    ab, lay, tile, cluster, rest = m.groups()
    kind = 'sk' if '+sk' in rest or '_ks' in rest else 'dp'
    for tag in ('swap', 'pack', 'slab'):
        if '+' + tag in rest:
            kind += '+' + tag
    return (ab, lay.upper(), tile, cluster, kind)


def main():
    args = sys.argv[1:]
    opt = {'--min': '4', '--off': '0.05', '--show': None}
    files = []
    while args:
        a = args.pop(0)
        if a in opt:
            opt[a] = args.pop(0)
        else:
            files.append(a)
    fams = defaultdict(list)
    for path in files:
        for s in parse(path):
            rows = [(r[2] / r[1], r[3]) for r in s['rows'] if r[1] > 0]
            if len(rows) < 2:
                continue
            med = st.median(q for q, _ in rows)
            for q, name in rows:
                f = family(name)
                if f:
                    fams[f].append((q / med, s['shape'], s['layout'], name))
    out = []
    for f, v in fams.items():
        if len(v) < int(opt['--min']):
            continue
        qs = sorted(x[0] for x in v)
        med = st.median(qs)
        if abs(med - 1) >= float(opt['--off']):
            out.append((med, qs[len(qs) // 4], qs[(3 * len(qs)) // 4], len(v), f))
    for med, q1, q3, n, f in sorted(out):
        print(f"{med:.3f} ({q1:.3f}-{q3:.3f}) {n:4d}  {' '.join(f)}")
    if opt['--show']:
        for f, v in sorted(fams.items()):
            if re.search(opt['--show'], ' '.join(f)):
                print(f"== {' '.join(f)}")
                for q, shape, lay, name in sorted(v):
                    print(f"  {q:.3f} {shape:18s} {lay} {name}")


if __name__ == '__main__':
    main()
