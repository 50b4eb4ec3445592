#!/usr/bin/env python3
"""Two builds' bench logs from one GPU call compared shape by shape (no GPU needed).

    python3 scripts/compare-runs.py DIR NEW_GLOB OLD_GLOB [SET.txt ...]

DIR holds the logs a call brought back (untar logs.tgz there first); NEW_GLOB and OLD_GLOB name
the two builds' runs of the same shapes, e.g. 'new-*.txt' 'old-*.txt' (scripts/gpu-env.sh
`alternate`), 'TN_new-*.txt' 'TN_old-*.txt' (`alternate_moved`) or 'ragged-new-*' 'ragged-old-*'.
Each shape's time is the fastest of its build's rounds; printed: the geomean of new / old over
every shape both timed, its five best and worst, and with SET files (scripts/shapes/*.txt) the
geomean over each set's shapes. Cross-call variance is up to 16% on the H200: compare runs of
one call only.
"""
import glob
import math
import os
import re
import sys


def times(paths):
    """shape -> fastest deepgemm ms over the logs (the bench's result rows)."""
    best = {}
    for path in paths:
        for line in open(path):
            m = re.match(r"^(\d+x\d+x\d+)\s+\S+\s+\S+\s+\S+\s+([\d.]+)\s", line)
            if m:
                best[m.group(1)] = min(best.get(m.group(1), math.inf), float(m.group(2)))
    return best


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def shapes_of(path):
    out = []
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line.split()[0])
    return out


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    d, new_glob, old_glob, sets = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    new_files = sorted(glob.glob(os.path.join(d, new_glob)))
    old_files = sorted(glob.glob(os.path.join(d, old_glob)))
    if not new_files or not old_files:
        sys.exit(f"no logs: {len(new_files)} new, {len(old_files)} old under {d}")
    new, old = times(new_files), times(old_files)
    ratios = {s: new[s] / old[s] for s in new if s in old}
    if not ratios:
        sys.exit("no shape timed by both builds")
    ranked = sorted(ratios.items(), key=lambda kv: kv[1])
    print(f"{len(new_files)} new and {len(old_files)} old logs, {len(ratios)} shapes: "
          f"new / old geomean {geomean(list(ratios.values())):.3f}")
    fmt = lambda kv: f"{kv[0]} {kv[1]:.3f} ({new[kv[0]] * 1e3:.1f}/{old[kv[0]] * 1e3:.1f} us)"
    print("  best: " + ", ".join(fmt(kv) for kv in ranked[:5]))
    print("  worst: " + ", ".join(fmt(kv) for kv in ranked[-5:]))
    for s in sets:
        xs = [ratios[x] for x in shapes_of(s) if x in ratios]
        print(f"  {os.path.basename(s)}: {len(xs)} shapes, geomean {geomean(xs):.3f}")


if __name__ == "__main__":
    main()
