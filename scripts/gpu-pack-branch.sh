#!/usr/bin/env bash
# Packs a branch's build next to the current pack, so one GPU call can run several branches:
# builds REV in a scratch worktree with scripts/gpu-pack.sh and moves its pack to .gpu/NAME/,
# laid out like the repository root (NAME/.gpu/ the pack, NAME/scripts/ the branch's scripts).
# Run it after scripts/gpu-pack.sh (which empties .gpu/). There, from the repo root:
#     (cd .gpu/NAME && OUT=$OUT/NAME bash scripts/gpu-sessionX.sh)
# Only the bench, libdeepgemm.so and the nvrtc_sm90 and gpu_matmul tests are kept (the carry
# limit is 64 MiB). Needs no GPU.
#     bash scripts/gpu-pack-branch.sh REV NAME
set -euo pipefail
cd "$(dirname "$0")/.."
REV=$1
NAME=$2
TREE=${TMPDIR:-/tmp}/deepgemm-branch-$NAME
git worktree remove --force "$TREE" 2>/dev/null || rm -rf "$TREE"
git worktree add --detach "$TREE" "$REV" >/dev/null
# One target folder for every branch (only deepgemm's own crates rebuild); gpu-pack.sh reads
# target/release, so the worktree's target is a link to it.
mkdir -p "${TMPDIR:-/tmp}/deepgemm-branch-target"
ln -s "${TMPDIR:-/tmp}/deepgemm-branch-target" "$TREE/target"
(cd "$TREE" && bash scripts/gpu-pack.sh) >"${TMPDIR:-/tmp}/pack-$NAME.log" 2>&1 ||
    { tail -20 "${TMPDIR:-/tmp}/pack-$NAME.log"; exit 1; }
DEST=.gpu/$NAME
rm -rf "$DEST"
mkdir -p "$DEST/.gpu/tests"
cp -r "$TREE/scripts" "$DEST/scripts"
P=$TREE/.gpu
cp "$P/deepgemm-bench" "$P/libdeepgemm.so" "$P/gpu-run.sh" "$P/shapes.txt" "$DEST/.gpu/"
cp -r "$P/shapes" "$DEST/.gpu/shapes"
cp "$P/tests/nvrtc_sm90" "$P/tests/gpu_matmul" "$DEST/.gpu/tests/"
git worktree remove --force "$TREE"
echo "== $DEST from $(git rev-parse --short "$REV"): $(du -sh "$DEST" | cut -f1); .gpu now $(du -sh .gpu | cut -f1)"
