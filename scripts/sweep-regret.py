#!/usr/bin/env python3
"""Scores a cost model against `deepgemm-bench --sweep` timings (no GPU needed).

    python3 scripts/sweep-regret.py PLANS_ALL SWEEP_LOG...

PLANS_ALL: `deepgemm-bench --plans-all --shapes F [--layout L] > PLANS_ALL` from the build whose
model is scored (one "SHAPE us NAME" line per plan). SWEEP_LOG: the logs of `--sweep` runs (each
candidate's model estimate and measured time). For every shape: the plan the swept build chose
(its "#0"), the plan this model ranks first among the measured ones, and the fastest measured;
then the geomean of chosen / fastest for both ("regret": 1.0 = always the fastest). A shape
whose model-first plan overall was not measured is flagged: the sweep cannot score it.
"""
import math
import re
import sys


def sweeps(paths):
    rows = {}
    for path in paths:
        shape = None
        for line in open(path):
            m = re.match(r"^\[\d+/\d+\] (\S+)", line)
            if m:
                shape = m.group(1)
                rows.setdefault(shape, [])
                continue
            m = re.match(r"\s+sweep #(\d+)\s+model\s+([\d.]+) us\s+measured\s+([\d.]+) us.*?(dg_sm90\S+)", line)
            if m and shape:
                rows[shape].append((int(m.group(1)), float(m.group(3)), m.group(4)))
    return rows


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    est = {}
    first = {}
    for line in open(sys.argv[1]):
        p = line.split()
        if len(p) == 3 and p[2].startswith("dg_sm90"):
            est[(p[0], p[2])] = float(p[1])
            if p[0] not in first or float(p[1]) < first[p[0]][0]:
                first[p[0]] = (float(p[1]), p[2])
    old_r, new_r = [], []
    for shape, cands in sweeps(sys.argv[2:]).items():
        # The fastest of every plan measured, also of those this model does not know (a model
        # without them is charged for the plans it cannot choose).
        best = min(cands, key=lambda c: c[1]) if cands else None
        cands = [c for c in cands if (shape, c[2]) in est]
        if not cands:
            continue
        old = min(cands, key=lambda c: c[0])
        new = min(cands, key=lambda c: est[(shape, c[2])])
        old_r.append(old[1] / best[1])
        new_r.append(new[1] / best[1])
        short = lambda n: n.split("_", 4)[-1]
        flag = "" if first[shape][1] in [c[2] for c in cands] else f"  (model first: {short(first[shape][1])}, not measured)"
        if old[2] != new[2] or flag:
            print(f"{shape:18s} old {short(old[2]):34s} {old[1]:7.1f}  new {short(new[2]):34s} {new[1]:7.1f}  best {best[1]:7.1f}{flag}")
    g = lambda r: math.exp(sum(map(math.log, r)) / len(r))
    print(f"{len(old_r)} shapes: chosen / fastest measured, geomean: swept build {g(old_r):.3f}, this model {g(new_r):.3f}")


if __name__ == "__main__":
    main()
