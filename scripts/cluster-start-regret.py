#!/usr/bin/env python3
"""Offline check of the clusters-of-2 x 1 start charge (`streamk::CLUSTER_START_S`, 4 us) on
every `--sweep` log kept in scripts/sweeps (each candidate's model estimate next to its measured
time). Session 73: charging less moved picks to 1.01-1.03x their time (BENCHMARKS.md).

    python3 scripts/cluster-start-regret.py pairs MIN_SESSION
        the 128-row tiles timed in the same sweep unclustered and in 2 x 1 (same width, ring
        epilogue or not, same schedule kind): measured and modelled 2 x 1 / 1 x 1 by layout,
        schedule and waves.
    python3 scripts/cluster-start-regret.py repick LAYOUT MIN_SESSION
        delta us taken off every 2 x 1 candidate's estimate, each sweep's first plan re-picked
        among its measured candidates: the moved picks' measured time over the old ones'."""
import importlib.util, math, re, statistics, sys
from collections import defaultdict

spec = importlib.util.spec_from_file_location('sk', 'scripts/sk-subwave-regret.py')
sk = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sk)


def with_layouts(min_session):
    out = []
    for lay in ('TN', 'NN', 'NT', 'TT'):
        out += [(s, lay, c) for s, c in sk.read_sweeps(min_session, lay)]
    return out


def pairs(min_session):
    g = defaultdict(list)
    for shape, lay, c in with_layouts(min_session):
        d = {}
        for mo, me, n in c:
            m = re.search(r'_m128n(\d+)k64_s\d+_c(\dx\d)(_re)?(\+\S+)?$', n)
            if m:
                d.setdefault((m.group(1), m.group(3) or '', m.group(4) or ''), {})[m.group(2)] = (mo, me)
        M, N, _ = map(int, shape.split('x'))
        for key, v in d.items():
            if '1x1' in v and '2x1' in v:
                tiles = math.ceil(M / 128) * math.ceil(N / int(key[0]))
                kind = ('sk' if '+sk' in key[2] else 'dp', 'one wave' if tiles <= 132 else 'waves')
                g[(lay, key[1] or 'plain') + kind].append((v['2x1'][1] / v['1x1'][1], v['2x1'][0] / v['1x1'][0]))
    for k, v in sorted(g.items()):
        print(k, len(v), 'measured 2x1 / 1x1 median %.3f, modelled %.3f, 2x1 faster in %.0f%%' % (
            statistics.median(x[0] for x in v), statistics.median(x[1] for x in v),
            100 * sum(x[0] < 1 for x in v) / len(v)))


def repick(lay, min_session):
    sw = sk.read_sweeps(min_session, lay)
    for delta in (0.5, 1, 2, 3, 4):
        moved = sk.repick(sw, lambda n: '_c2x1' in n, delta)
        print(f'{lay} delta {delta}: {len(sw)} swept shapes, {len(moved)} moved, '
              f'{sum(m[0] < 1 for m in moved)} faster, geomean {sk.geomean([math.log(m[0]) for m in moved]):.3f}')
        for m in moved[:2] + moved[-2:]:
            print('   ', m)


if __name__ == '__main__':
    a = sys.argv[1:]
    if a[0] == 'pairs':
        pairs(int(a[1]))
    else:
        repick(a[1], int(a[2]))
