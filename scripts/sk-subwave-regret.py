#!/usr/bin/env python3
"""Offline check of a cheaper Stream-K fixup charge where each Stream-K tile is shared by two CTAs
(sk_tiles <= CTAs < 2 x sk_tiles, tiles 128+ wide: one partial written and one read a tile), on
every `--sweep` log kept in scripts/sweeps (each candidate's model estimate next to its measured
time). For each delta (us taken off those candidates' estimates) it re-picks the first plan among
the measured candidates of each swept shape and reports the measured time of the new pick over
the old one (session 72: every delta slower; see BENCHMARKS.md).
    python3 scripts/sk-subwave-regret.py [MIN_SESSION]"""
import glob, math, re, statistics, sys

min_session = int(sys.argv[1]) if len(sys.argv) > 1 else 0
sweeps = []  # (file, shape, [(model_us, measured_us, name)])
for f in sorted(glob.glob('scripts/sweeps/**/*.txt', recursive=True)):
    m = re.search(r'sweeps/(\d+)', f)
    if not m or int(m.group(1)) < min_session:
        continue
    shape, cands = None, []
    for line in open(f, errors='replace'):
        h = re.match(r'\[\d+/\d+\] (\S+) (\S+) ', line)
        if h:
            if shape and cands:
                sweeps.append((f, shape, cands))
            shape, cands = h.group(1) + ' ' + h.group(2), []
            continue
        c = re.search(r'sweep #\d+ +model +([0-9.]+) us +measured +([0-9.]+) us.*?(dg_sm90_\S+)', line)
        if c and shape and float(c.group(1)) > 0:
            cands.append((float(c.group(1)), float(c.group(2)), c.group(3)))
    if shape and cands:
        sweeps.append((f, shape, cands))


def two_a_tile(name):
    s = re.search(r'm128n(\d+)k\d+.*\+sk(\d+)x(\d+)', name)
    if not s:
        return False
    n, tiles, ctas = map(int, s.groups())
    return n >= 128 and tiles <= ctas < 2 * tiles


both = [(f, s, c) for f, s, c in sweeps
        if any(two_a_tile(n) for _, _, n in c) and any('+sk' not in n for _, _, n in c)]
if both:
    over = [(min((x for x in c if two_a_tile(x[2])), key=lambda x: x[1]),
             min((x for x in c if '+sk' not in x[2]), key=lambda x: x[1])) for _, _, c in both]
    r = [sk[1] / dp[1] for sk, dp in over]
    e = [(sk[0] - sk[1]) - (dp[0] - dp[1]) for sk, dp in over]
    print(f'{len(both)} swept shapes with both kinds: fastest two-a-tile Stream-K / fastest '
          f'data-parallel median {statistics.median(r):.3f} (faster in {sum(x < 1 for x in r)}); '
          f'its model error over the data-parallel one median {statistics.median(e):.1f} us')
for delta in (2, 4, 6, 8, 10, 13):
    moved = []
    for _, _, c in sweeps:
        if len(c) < 2:
            continue
        old = min(c, key=lambda x: x[0])
        new = min(c, key=lambda x: x[0] - (delta if two_a_tile(x[2]) else 0))
        if new is not old:
            moved.append(math.log(new[1] / old[1]))
    g = math.exp(sum(moved) / len(moved)) if moved else 1.0
    print(f'delta {delta:2d} us: {len(sweeps)} swept shapes, {len(moved)} moved '
          f'({sum(x < 0 for x in moved)} faster), moved geomean {g:.3f} of the time')
