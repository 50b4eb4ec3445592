#!/usr/bin/env python3
"""The two Stream-K hybrids of one kernel timed against each other in sweep logs: the form that
splits only the last partial wave's tiles over every CTA (`sk(tiles % sms)`) over its twin with a
full wave more (`+sk(N + CTAs)`), measured and modelled, by A + B bytes (session 57: 414 pairs
over every kept log, 57a-c included, 1.04-1.10x slower in every bin).
    python3 scripts/hybrid-pairs.py scripts/sweeps/*.txt scripts/sweeps/*/*.txt [-v]"""
import math
import re
import sys

sys.path.insert(0, __import__('os').path.dirname(__file__))
from sweeplog import parse

verbose = '-v' in sys.argv
pairs = []
for path in [a for a in sys.argv[1:] if a != '-v']:
    for s in parse(path):
        by = {}
        for r in s['rows']:
            m = re.match(r'(.*)\+sk(\d+)x(\d+)$', r[3])
            if m:
                by.setdefault((m.group(1), int(m.group(3))), []).append((int(m.group(2)), r))
        for (kern, ctas), h in by.items():
            if len(h) != 2:
                continue
            (n1, small), (n2, big) = sorted(h)
            if n2 - n1 != ctas:
                continue
            m, n, k = map(int, s['shape'].split('x'))
            # A's type is the name's first field after dg_sm90_ (bf16_f32_... has 16-bit inputs).
            a_type = kern.replace('dg_sm90_', '').split('_')[0]
            ab = (m + n) * k * s['batch'] * (4 if a_type == 'f32' else 2) / 1e6
            pairs.append((small[2] / big[2], small[1] / big[1], ab, s['shape'], s['layout'], kern, path))
g = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
print(f'{len(pairs)} pairs')
for lo, hi in [(0, 30), (30, 60), (60, 120), (120, math.inf)]:
    p = [x for x in pairs if lo <= x[2] < hi]
    if p:
        print(f'A+B {lo}-{hi} MB: {len(p)} pairs, small / big measured {g([x[0] for x in p]):.3f} '
              f'(faster by 1%+: {sum(x[0] < 0.99 for x in p)}, slower by 1%+: {sum(x[0] > 1.01 for x in p)}); '
              f'modelled {g([x[1] for x in p]):.3f}, the model preferring small in {sum(x[1] < 1 for x in p)}')
if verbose:
    for x in sorted(pairs)[:20]:
        print('  %.3f model %.3f A+B %.0f MB %s %s %s %s' % x)
