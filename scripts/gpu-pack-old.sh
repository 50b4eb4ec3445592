#!/usr/bin/env bash
# Builds deepgemm-bench at revision REV (default HEAD~1) in a scratch worktree and puts it in
# .gpu/old/, next to the current pack: a before/after comparison inside one GPU run. Run it
# after scripts/gpu-pack.sh (which empties .gpu/); scripts/gpu-env.sh times it with
# `bench_old`. Needs no GPU.
#     bash scripts/gpu-pack-old.sh [REV] [DIR]   (DIR default old: .gpu/DIR/deepgemm-bench; a
#     second earlier build goes to e.g. old2, run there with OLD_B=.gpu/old2/deepgemm-bench)
# CUBINS=NAMES: as in gpu-pack.sh, its kernels carried as .gpu/DIR/cubins.txz (unpacked there
# into /tmp/deepgemm-DIR-cache, the scripts' OLD_CACHE); needs a REV whose bench has
# --manifest (session 29 on).
set -euo pipefail
cd "$(dirname "$0")/.."
REV=${1:-HEAD~1}
DIR=.gpu/${2:-old}
TREE=${TMPDIR:-/tmp}/deepgemm-old-tree
git worktree remove --force "$TREE" 2>/dev/null || rm -rf "$TREE"
git worktree add --detach "$TREE" "$REV" >/dev/null
(cd "$TREE" && CARGO_TARGET_DIR=${TMPDIR:-/tmp}/deepgemm-old-target cargo build --release --bin deepgemm-bench)
mkdir -p "$DIR"
cp "${TMPDIR:-/tmp}/deepgemm-old-target/release/deepgemm-bench" "$DIR"/
strip --strip-debug "$DIR"/deepgemm-bench
if [ -n "${CUBINS:-}" ]; then
    bash scripts/gpu-cubins.sh "$DIR"/deepgemm-bench "$CUBINS" "$DIR/cubins.txz"
fi
git worktree remove --force "$TREE"
echo "== $DIR/deepgemm-bench from $(git rev-parse --short "$REV")"
