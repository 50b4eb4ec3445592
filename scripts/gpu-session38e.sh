#!/usr/bin/env bash
# Session 38, call e (~3 min; 38c's kernels carried as .gpu/cubins.txz, session 37's as
# .gpu/old/cubins.txz): 7956e90 (each box of a column-major D in one TMA store) against 8eb38bb
# on the kept TN sets 38d did not time, and random-k8 NT; one round each, cuBLASLt in every run.
# Predicted: random-k8 ~0.99 of the time, under-wave and small-mn-long-k within 1% (one tile a
# CTA or narrow whole-box tiles: an epilogue is a small part of those launches).
#     here: bash scripts/gpu-pack.sh; bash scripts/gpu-pack-old.sh 8eb38bb old (+ both caches)
#     there: bash scripts/gpu-session38e.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
pair k8-tn 1 --layout TN --shapes .gpu/shapes/random-k8.txt --iters 20 --warmup 3
pair k8-nt 1 --layout NT --shapes .gpu/shapes/random-k8.txt --iters 20 --warmup 3
pair uw-tn 1 --layout TN --shapes .gpu/shapes/under-wave.txt --iters 20 --warmup 3
pair smk-tn 1 --layout TN --shapes .gpu/shapes/small-mn-long-k.txt --iters 20 --warmup 3
finish
