#!/usr/bin/env python3
"""A set of candidates (a `--sweep` log) against the plan a bench run timed, from one GPU call.

    python3 scripts/oracle-vs-plan.py BENCH_LOG SWEEP_LOG [NAME_PART]

BENCH_LOG: `deepgemm-bench` (the default plan, one time a shape); SWEEP_LOG: `--sweep` of the
same shapes and layout under some forcing (e.g. DEEPGEMM_SOLO=1), every candidate timed. For
each shape: the fastest swept candidate (whose name contains NAME_PART, if given) over the
plan's time. Prints the geomean, how many shapes the candidates beat the plan by 3%+, and the
best and worst. Only runs of one call are comparable (cross-call variance up to 16%).

The two modes time alike kernels differently: the sweep times each candidate back to back, the
bench alternates deepgemm with cuBLASLt, and the same kernel measured 0.945 (TN) and 0.971 (NT)
of its bench time in the sweep (session 43, `43d`, 57 shapes of ~7-11 us each). So a ratio
here within ~5% of 1 is no win: time a candidate through the bench (e.g. forced with
DEEPGEMM_VARIANT) before planning it.
"""
import math
import re
import sys


def plan_times(path):
    """shape -> (deepgemm ms, cuBLASLt ms, kernel) of the bench's result rows."""
    out, kernel = {}, {}
    for line in open(path):
        m = re.search(r"\] (\d+x\d+x\d+) .*heuristic [\d.]+ ms, (\S+?)\)", line)
        if m:
            kernel[m.group(1)] = m.group(2)
        m = re.match(r"^(\d+x\d+x\d+)\s+\S+\s+\S+\s+\S+\s+([\d.]+)\s+\S+\s+([\d.]+)", line)
        if m:
            s = m.group(1)
            out[s] = (float(m.group(2)), float(m.group(3)), kernel.get(s, "?"))
    return out


def sweep_best(path, part):
    """shape -> (fastest measured us, its kernel) over the swept candidates."""
    best, shape = {}, None
    for line in open(path):
        m = re.match(r"^\[\d+/\d+\] (\d+x\d+x\d+) ", line)
        if m:
            shape = m.group(1)
            continue
        m = re.match(r"\s+sweep #\d+\s+model\s+[\d.]+ us\s+measured\s+([\d.]+) us.*?(dg_\S+)", line)
        if m and shape and (part is None or part in m.group(2)):
            t = float(m.group(1))
            if t < best.get(shape, (math.inf, ""))[0]:
                best[shape] = (t, m.group(2))
    return best


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    plans = plan_times(sys.argv[1])
    best = sweep_best(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    rows = []
    for s, (t, cub, k) in plans.items():
        if s in best:
            rows.append((best[s][0] / (t * 1e3), s, t * 1e3, best[s][0], cub * 1e3, k, best[s][1]))
    if not rows:
        sys.exit("no shape in both logs")
    rows.sort()
    g = math.exp(sum(math.log(r[0]) for r in rows) / len(rows))
    # Taking the candidate only where it is faster (an oracle's choice between the two).
    o = math.exp(sum(math.log(min(1.0, r[0])) for r in rows) / len(rows))
    print(f"{len(rows)} shapes: candidates' best / plan geomean {g:.3f}, oracle min(1, .) {o:.3f}, "
          f"{sum(r[0] < 0.97 for r in rows)} beat it by 3%+")
    short = lambda k: re.sub(r"^dg_sm90_\w+?_\w+?_(tn|nn|tt|nt)_", "", k)
    for r in rows[:8] + [None] + rows[-5:]:
        if r is None:
            print("  ...")
            continue
        print(f"  {r[1]:18} {r[0]:.3f}  plan {r[2]:6.1f} us ({short(r[5])})  best {r[3]:6.1f} us "
              f"({short(r[6])})  cuBLASLt {r[4]:6.1f} us")


if __name__ == "__main__":
    main()
