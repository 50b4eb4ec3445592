#!/usr/bin/env python3
"""A planner change's moves, timed: new first plan over old, from interleaved sweeps of the new
build whose candidate lists hold the old first plans too (session 57's `57c`).
    bash scripts/plan-diff.sh OLD NEW shapes.txt > moved.txt   (LAYOUTS / PLAN_ARGS as needed)
    python3 scripts/moves-timed.py moved.txt sweep-*.txt [-v]
Prints, per layout and input type, the moves found in the logs, the geomean of new / old time
and both against cuBLASLt (interleaved sweeps only)."""
import math
import re
import sys
from collections import defaultdict

sys.path.insert(0, __import__('os').path.dirname(__file__))
from sweeplog import parse

verbose = '-v' in sys.argv
args = [a for a in sys.argv[1:] if a != '-v']
moves = {}
for line in open(args[0]):
    m = re.search(r' (TN|NN|TT|NT) (\d+x\d+x\d+): (\S+) -> (\S+)', line)
    if m:
        old, new = (n.replace('dg_sm90_', '') for n in (m.group(3), m.group(4)))
        moves[(old.split('_')[0], m.group(1), m.group(2))] = (old, new)
groups = defaultdict(list)
for path in args[1:]:
    for s in parse(path):
        times = {r[3].replace('dg_sm90_', ''): r[2] for r in s['rows']}
        for (ab, lay, shape), (old, new) in moves.items():
            if lay != s['layout'] or shape != s['shape'] or old not in times or new not in times:
                continue
            groups[(ab, lay)].append((times[new] / times[old], shape, old, new, times, s['lt']))
found = {(ab, lay, x[1]) for (ab, lay), rows in groups.items() for x in rows}
missing = sorted(set(moves) - found)
print(f'{len(found)} of {len(moves)} moves timed in the logs')
if missing and verbose:
    for ab, lay, shape in missing:
        print(f'    not timed: {ab} {lay} {shape} {moves[(ab, lay, shape)][0]} -> {moves[(ab, lay, shape)][1]}')
g = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
for (ab, lay), rows in sorted(groups.items()):
    r = [x[0] for x in rows]
    line = f'{ab} {lay}: {len(rows)} moves, new / old {g(r):.3f} ({min(r):.3f}-{max(r):.3f})'
    lts = [(x[5] / x[4][x[2]], x[5] / x[4][x[3]]) for x in rows if x[5]]
    if lts:
        line += f'; x cuBLASLt {g([a for a, _ in lts]):.3f} -> {g([b for _, b in lts]):.3f}'
    print(line)
    if verbose:
        for x in sorted(rows):
            print(f'    {x[0]:.3f} {x[1]} {x[2]} -> {x[3]}')
