#!/usr/bin/env bash
# Which shapes' first plan differs between two deepgemm-bench builds (the cost model only, no
# GPU): prints "file layout shape: old -> new" for each. Use it before a GPU run to list what a
# planner change moves (and measure exactly those), and after one to check nothing else moved.
#     bash scripts/plan-diff.sh OLD_BENCH NEW_BENCH scripts/shapes/random.txt ...
#     LAYOUTS="TN NN TT NT" bash scripts/plan-diff.sh ...   (default: TN NN)
# An old build: scripts/gpu-pack-old.sh REV leaves one in .gpu/old/deepgemm-bench.
set -uo pipefail
old=$1
new=$2
shift 2
first() { "$1" --plans --shape "$2" --layout "$3" 2>&1 | grep -E "^ +[0-9.]+ us" | head -1 | awk '{print $NF}'; }
for f in "$@"; do
    for s in $(grep -vE '^\s*#|^\s*$' "$f" | awk '{print $1}'); do
        for l in ${LAYOUTS:-TN NN}; do
            a=$(first "$old" "$s" "$l")
            b=$(first "$new" "$s" "$l")
            [ "$a" != "$b" ] && echo "$f $l $s: $a -> $b"
        done
    done
done
exit 0
