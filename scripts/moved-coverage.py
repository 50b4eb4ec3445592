#!/usr/bin/env python3
"""How much of a planner change the kept sweeps can judge (no GPU needed).

    bash scripts/plan-diff.sh OLD NEW scripts/shapes/*.txt > /tmp/moved.txt   (LAYOUTS="TN NN TT NT")
    python3 scripts/moved-coverage.py /tmp/moved.txt scripts/sweeps/*.txt

For every shape-layout whose first plan moved: the old and the new plan's times where a kept sweep
timed them at that shape and layout (the fastest of the logs that did), then how many moves had
both timed and their geomean new / old. scripts/score-model.sh scores only the moves that
the sweeps timed; session 25 merged none of two changes it scored better, which moved mostly
untimed plans (25c, 25g in BENCHMARKS.md): measure those on the GPU.
"""
import math
import re
import sys


def sweep_times(paths):
    times = {}
    for path in paths:
        shape = layout = None
        for line in open(path):
            m = re.match(r"^\[\d+/\d+\] (\d+x\d+x\d+) (TN|NN|TT|NT) ", line)
            if m:
                shape, layout = m.group(1), m.group(2)
                continue
            m = re.match(r"\s+sweep #\d+\s+model\s+[\d.]+ us\s+measured\s+([\d.]+) us.*?(dg_\S+)", line)
            if m and shape:
                key = (shape, layout, m.group(2))
                times[key] = min(times.get(key, math.inf), float(m.group(1)))
    return times


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    times = sweep_times(sys.argv[2:])
    seen = set()
    both = []
    moved = 0
    for line in open(sys.argv[1]):
        m = re.match(r"^(\S+) (TN|NN|TT|NT) (\S+): (\S+) -> (\S+)$", line.strip())
        if not m or (m.group(2), m.group(3)) in seen:
            continue
        layout, shape, old, new = m.group(2), m.group(3), m.group(4), m.group(5)
        seen.add((layout, shape))
        moved += 1
        t_old = times.get((shape, layout, old))
        t_new = times.get((shape, layout, new))
        fmt = lambda t: f"{t:7.1f}" if t is not None else "      -"
        short = lambda n: n.split("_", 4)[-1]
        print(f"{layout} {shape:18s} {short(old):34s} {fmt(t_old)} -> {short(new):34s} {fmt(t_new)}")
        if t_old is not None and t_new is not None:
            both.append(t_new / t_old)
    g = math.exp(sum(map(math.log, both)) / len(both)) if both else float("nan")
    print(f"{moved} shape-layouts moved; {len(both)} with both plans timed in a kept sweep "
          f"(new / old geomean {g:.3f}); {moved - len(both)} for the GPU")


if __name__ == "__main__":
    main()
