#!/usr/bin/env python3
"""Scores the planner's first choice against `deepgemm-bench --sweep` timings (no GPU needed).

    python3 scripts/plan-regret.py PLANS SWEEP_LOG [-v]

PLANS: `deepgemm-bench --plans --shapes F --layout L > PLANS` from the build scored (its ranked
candidates, swap margins and every other rule of `plan::candidates` applied, unlike
`--plans-all` and scripts/sweep-regret.py). SWEEP_LOG: a `--sweep` run of the same shapes and
layout. Per shape: the sweep's chosen plan (#0), the build's first plan, the fastest timed; the
geomean of chosen / fastest for both. A first plan the sweep did not time is counted as the
sweep's choice and listed as unscored. -v lists every shape whose first plan changed.
"""
import math
import re
import sys


def plans(path):
    out, shape = {}, None
    for line in open(path):
        m = re.match(r"^(\d+x\d+x\d+):", line)
        if m:
            shape = m.group(1)
            out[shape] = []
            continue
        m = re.match(r"\s+[\d.]+ us .*?(dg_\S+)", line)
        if m and shape:
            out[shape].append(m.group(1))
    return out


def sweep(path):
    out, shape = {}, None
    for line in open(path):
        m = re.match(r"^\[\d+/\d+\] (\S+)", line)
        if m:
            shape = m.group(1)
            out[shape] = {}
            continue
        m = re.match(r"\s+sweep #(\d+)\s+model\s+[\d.]+ us\s+measured\s+([\d.]+) us.*?(dg_\S+)", line)
        if m and shape:
            out[shape][m.group(3)] = (int(m.group(1)), float(m.group(2)))
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    P, S, verbose = plans(sys.argv[1]), sweep(sys.argv[2]), "-v" in sys.argv
    old_l, new_l, unscored, moved = [], [], [], []
    for shape, timed in S.items():
        if not timed or shape not in P or not P[shape]:
            continue
        best = min(t for _, t in timed.values())
        chosen = min(timed.items(), key=lambda kv: kv[1][0])
        first = P[shape][0]
        new = timed.get(first)
        if new is None:
            unscored.append((shape, first))
            new = chosen[1]
        old_l.append(math.log(chosen[1][1] / best))
        new_l.append(math.log(new[1] / best))
        if first != chosen[0]:
            moved.append((new[1] / chosen[1][1], shape, chosen[0], chosen[1][1], first, new[1]))
    short = lambda n: n.replace("dg_sm90_bf16_bf16_", "")
    if verbose:
        for r, shape, a, ta, b, tb in sorted(moved):
            print(f"  {r:.3f} {shape:>18} {short(a)} {ta:.1f} -> {short(b)} {tb:.1f}")
        for shape, first in unscored:
            print(f"  unscored {shape}: {short(first)}")
    g = lambda l: math.exp(sum(l) / len(l)) if l else float("nan")
    print(f"{len(old_l)} shapes: chosen/fastest swept {g(old_l):.4f} -> this build {g(new_l):.4f}; "
          f"{len(moved)} moved ({len(unscored)} unscored)")


if __name__ == "__main__":
    main()
