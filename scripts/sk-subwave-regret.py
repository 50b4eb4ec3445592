#!/usr/bin/env python3
"""Offline check of a cheaper Stream-K fixup charge where each Stream-K tile is shared by two CTAs
(sk_tiles <= CTAs < 2 x sk_tiles, tiles 128+ wide: one partial written and one read a tile), on
every `--sweep` log kept in scripts/sweeps (each candidate's model estimate next to its measured
time). Session 72: every variant of it slower (BENCHMARKS.md).

    python3 scripts/sk-subwave-regret.py [MIN_SESSION]
        with each sweep's own estimates: for each delta (us taken off those candidates'
        estimates), the first plan among each swept shape's measured candidates re-picked, and
        the measured time of the new pick over the old one.
    python3 scripts/sk-subwave-regret.py --model LAYOUT MIN_SESSION KNOB_BENCH X...
        with today's model: the pick of main's ./target/release/deepgemm-bench --plans-all
        against that of KNOB_BENCH (a release bench built at 01716b3, the knob, withdrawn
        after this) under DEEPGEMM_SK_SUBWAVE_FIXUP_US=X, over LAYOUT's swept shapes."""
import collections, glob, math, os, re, statistics, subprocess, sys, tempfile


def read_sweeps(min_session, layout=None):
    """[(shape, [(model_us, measured_us, name)])] of every kept sweep from MIN_SESSION on."""
    out = []
    for f in sorted(glob.glob('scripts/sweeps/**/*.txt', recursive=True)):
        m = re.search(r'sweeps/(\d+)', f)
        if not m or int(m.group(1)) < min_session:
            continue
        shape, cands = None, []
        for line in open(f, errors='replace'):
            h = re.match(r'\[\d+/\d+\] (\S+) (\S+) ', line)
            if h:
                if shape and cands:
                    out.append((shape, cands))
                shape = h.group(1) if layout in (None, h.group(2)) else None
                cands = []
                continue
            c = re.search(r'sweep #\d+ +model +([0-9.]+) us +measured +([0-9.]+) us.*?(dg_sm90\S+)', line)
            if c and shape and float(c.group(1)) > 0:
                cands.append((float(c.group(1)), float(c.group(2)), c.group(3)))
        if shape and cands:
            out.append((shape, cands))
    return out


def two_a_tile(name):
    s = re.search(r'm128n(\d+)k\d+.*\+sk(\d+)x(\d+)', name)
    if not s:
        return False
    n, tiles, ctas = map(int, s.groups())
    return n >= 128 and tiles <= ctas < 2 * tiles


def geomean(logs):
    return math.exp(sum(logs) / len(logs)) if logs else 1.0


def repick(sweeps, hit, delta):
    """Each sweep's first plan re-picked among its measured candidates with `delta` us taken off
    the estimates of those `hit(name)` selects: [(new / old measured, shape, old, new)] of the
    moved picks, fastest first (also scripts/cluster-start-regret.py)."""
    moved = []
    for shape, c in sweeps:
        if len(c) < 2:
            continue
        old = min(c, key=lambda x: x[0])
        new = min(c, key=lambda x: x[0] - (delta if hit(x[2]) else 0))
        if new is not old:
            moved.append((new[1] / old[1], shape, old[2].split('_', 4)[-1], new[2].split('_', 4)[-1]))
    return sorted(moved)


def own_estimates(min_session):
    sweeps = read_sweeps(min_session)
    both = [c for _, c in sweeps
            if any(two_a_tile(n) for _, _, n in c) and any('+sk' not in n for _, _, n in c)]
    if both:
        over = [(min((x for x in c if two_a_tile(x[2])), key=lambda x: x[1]),
                 min((x for x in c if '+sk' not in x[2]), key=lambda x: x[1])) for c in both]
        r = [sk[1] / dp[1] for sk, dp in over]
        e = [(sk[0] - sk[1]) - (dp[0] - dp[1]) for sk, dp in over]
        print(f'{len(both)} swept shapes with both kinds: fastest two-a-tile Stream-K / fastest '
              f'data-parallel median {statistics.median(r):.3f} (faster in {sum(x < 1 for x in r)}); '
              f'its model error over the data-parallel one median {statistics.median(e):.1f} us')
    for delta in (2, 4, 6, 8, 10, 13):
        moved = [math.log(m[0]) for m in repick(sweeps, two_a_tile, delta)]
        print(f'delta {delta:2d} us: {len(sweeps)} swept shapes, {len(moved)} moved '
              f'({sum(x < 0 for x in moved)} faster), moved geomean {geomean(moved):.3f} of the time')


def todays_model(layout, min_session, knob, xs):
    meas = collections.defaultdict(dict)  # shape -> name -> measured us (best of the logs)
    for shape, cands in read_sweeps(min_session, layout):
        for _, t, n in cands:
            meas[shape][n] = min(t, meas[shape].get(n, t))
    shapes = sorted(meas)
    with tempfile.NamedTemporaryFile('w', suffix='.txt') as f:
        f.write('\n'.join(shapes) + '\n')
        f.flush()

        def plans(bench, env):
            out = subprocess.run([bench, '--plans-all', '--layout', layout, '--shapes', f.name],
                                 capture_output=True, text=True, env={**os.environ, **env}).stdout
            return {(p[0], p[2]): float(p[1]) for p in map(str.split, out.splitlines())
                    if len(p) == 3 and p[2].startswith('dg_sm90')}

        base = plans('./target/release/deepgemm-bench', {})
        for x in xs:
            est = plans(knob, {'DEEPGEMM_SK_SUBWAVE_FIXUP_US': x})
            moved = []
            for s in shapes:
                c = [n for n in meas[s] if (s, n) in base and (s, n) in est]
                if len(c) < 2:
                    continue
                old = min(c, key=lambda n: base[(s, n)])
                new = min(c, key=lambda n: est[(s, n)])
                if old != new:
                    moved.append((meas[s][new] / meas[s][old], s, old.split('_', 4)[-1], new.split('_', 4)[-1]))
            moved.sort()
            print(f'{layout} X={x}: {len(shapes)} swept shapes, {len(moved)} picks moved, '
                  f'{sum(m[0] < 1 for m in moved)} faster, geomean {geomean([math.log(m[0]) for m in moved]):.3f}')
            for m in moved[:3] + moved[-3:]:
                print('   ', m)


if __name__ == '__main__':
    a = sys.argv[1:]
    if a and a[0] == '--model':
        todays_model(a[1], int(a[2]), a[3], a[4:])
    else:
        own_estimates(int(a[0]) if a else 0)
