#!/usr/bin/env bash
# Which shapes' first plan differs between two deepgemm-bench builds (the cost model only, no
# GPU): prints "file layout shape: old -> new" for each. Use it before a GPU run to list what a
# planner change moves (and measure exactly those), and after one to check nothing else moved.
#     bash scripts/plan-diff.sh OLD_BENCH NEW_BENCH scripts/shapes/random.txt ...
#     LAYOUTS="TN NN TT NT" bash scripts/plan-diff.sh ...   (default: TN NN)
#     PLAN_ARGS="--epilogue bias" bash scripts/plan-diff.sh ...   (more bench arguments)
# An old build: scripts/gpu-pack-old.sh REV leaves one in .gpu/old/deepgemm-bench. Each build
# plans each file once a layout (seconds for every set; a shape missing from one side shows "-").
set -uo pipefail
old=$1
new=$2
shift 2
# The first plan of every shape of file $2 in layout $3 from build $1, one "SHAPE NAME" line each
# (one process a file and layout: the per-shape runs took minutes over the sets).
firsts() {
    local shapes
    shapes=$(mktemp)
    grep -vE '^\s*#|^\s*$' "$2" | awk '{print $1}' >"$shapes"
    "$1" --plans --shapes "$shapes" --layout "$3" ${PLAN_ARGS:-} 2>&1 |
        awk '/^[0-9]+x[0-9]+x[0-9]+:$/ {shape = substr($1, 1, length($1) - 1); next}
             shape != "" && /^ +[0-9.]+ us/ {print shape, $NF; shape = ""}'
    rm -f "$shapes"
}
for f in "$@"; do
    for l in ${LAYOUTS:-TN NN}; do
        join -a1 -a2 -e - -o 0,1.2,2.2 <(firsts "$old" "$f" "$l" | sort -k1,1) <(firsts "$new" "$f" "$l" | sort -k1,1) |
            awk -v f="$f" -v l="$l" '$2 != $3 {print f, l, $1 ": " $2 " -> " $3}'
    done
done
exit 0
