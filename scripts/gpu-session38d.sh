#!/usr/bin/env bash
# Session 38, call d (~6 min; on 38c's machine, its kernel caches still there, else carried):
# 7956e90 (each box of a column-major D in one TMA store) against 8eb38bb (.gpu/old), deepgemm's
# plans unchanged (no planner change), cuBLASLt in every run, L2 flushed.
# Predicted (38c's traces: 0.9-3.2k cycles off each tile at the fill widths): random-21d TN
# ~0.97 of the time (short-k shapes on fill widths 0.90-0.94, long-k ones 0.98-1.0), NN and NT
# alike; set A (whole-box widths) unchanged within 1%.
#     here: bash scripts/gpu-pack.sh; bash scripts/gpu-pack-old.sh 8eb38bb old (+ .gpu/old/cubins.txz
#     of session 37, .gpu/cubins.txz of 38c)     there: bash scripts/gpu-session38d.sh
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
pair r21d-tn 2 --layout TN --shapes .gpu/shapes/random-21d.txt --iters 20 --warmup 3
pair r21d-nt 1 --layout NT --shapes .gpu/shapes/random-21d.txt --iters 20 --warmup 3
pair r21d-nn 1 --layout NN --shapes .gpu/shapes/random-21d.txt --iters 20 --warmup 3
pair seta 1 --shapes .gpu/shapes/set-a.txt --iters 20 --warmup 3
finish
