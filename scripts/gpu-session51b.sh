#!/usr/bin/env bash
# Prepared in session 51 (no GPU lent) for the next GPU session, two calls. `big` (~7 min): large
# extents. No GPU run so far had an output, operand or batch of more than 2^31 elements, while
# real ones do (PyTorch's logits at a 128256-word vocabulary and 17k tokens: D is 2.18e9
# elements). Each case is the bench's check at `--check sample`: the float64 reference at ~400
# entries (the corners of the first and last batch among them), the whole D scanned for the NaN
# poison, and the whole D compared with cuBLASLt's. Host memory: up to ~55 GB a case (C and its
# float64 copy are built at D's size whatever beta).
# Predicted: every case PASS, deepgemm's time 0.9-1.1x cuBLASLt's where the layout is aligned.
# Session 53 ran these at 100 s a case: the four with D or a batch past 2^31 timed out on the
# host (one thread building C and its float64 copy, scanning D); the bench now fills, skips C's
# float64 copy at beta = 0 and scans D on every core, and a case has 150 s.
# `pack` (~3 min): gpu_pack (~50 s): session 51's calls at misaligned A/B base addresses with too little
# workspace for whole copies run in blocks (its new group, algo = NULL and the heuristic's algo
# under MIN_ALIGNMENT_A/B_BYTES), and its other groups through the changed choice of plan.
# Predicted: 14 / 0.
#     here:  bash scripts/gpu-pack.sh
# Two calls (~3 and ~7 min):
#     there: timeout 590 bash scripts/gpu-session51b.sh pack|big; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
# `big NAME ARGS...`: one checked launch pair into $OUT/big-NAME.txt; prints PASS / FAIL.
big() {
    local name=$1; shift
    timeout 150 "$B" --iters 2 --warmup 1 --check sample "$@" >"$OUT/big-$name.txt" 2>&1
    echo "big $name rc=$? ${SECONDS}s: $(grep -c ' PASS$' "$OUT/big-$name.txt") PASS, $(grep -c 'FAIL' "$OUT/big-$name.txt") FAIL;" \
        "$(grep -m1 -oE 'dg_(sm90|portable|pack|skinny)[^ ,)]*' "$OUT/big-$name.txt")"
}
if [ "${1:-pack}" = pack ]; then
timeout 150 .gpu/tests/gpu_pack --ignored --test-threads=1 >"$OUT/gpu_pack.txt" 2>&1
echo "== gpu_pack rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/gpu_pack.txt")"
grep -m5 -E "FAIL|panicked" "$OUT/gpu_pack.txt"
# gpu_blas: deepgemmSetWorkspace's new group (GemmEx with a workspace: packed copies, blocks,
# split-k partials), and the others. Predicted: 4 / 0.
timeout 120 .gpu/tests/gpu_blas --ignored --test-threads=1 >"$OUT/gpu_blas.txt" 2>&1
echo "== gpu_blas rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/gpu_blas.txt")"
grep -m5 -E "FAIL|panicked" "$OUT/gpu_blas.txt"
# Views at an offset (`--offset`, MIN_ALIGNMENT_A/B_BYTES announced to both heuristics) with the
# default 32 MiB of workspace: the blocks that replaced the portable kernel there, against
# cuBLASLt, and the portable kernel they replaced (DEEPGEMM_KERNELS=portable). Predicted: the
# blocks within ~10% of their model (--plans --offset 1,0: 8192³ slab4x1 1.49 ms), 4-10x the
# portable kernel's speed; against cuBLASLt at those alignments, unknown (its own kernels for
# 2-byte alignment).
OFF="--check sample --iters 10 --warmup 2 --shape 4096x4096x8192 --shape 8192x8192x8192 --shape 4096x14336x4096 --shape 2048x2048x2048"
bench offset-a $OFF --offset 1,0
bench offset-b $OFF --offset 0,3
bench offset-ab $OFF --offset 1,1
DEEPGEMM_KERNELS=portable bench offset-a-portable --no-cublas --check none --iters 3 --warmup 1 --shape 4096x4096x8192 --shape 8192x8192x8192 --offset 1,0
finish
exit
fi
# D over 2^31 elements, every layout (bf16), and with an fp32 D.
big tn-d --layout TN --shape 128256x17000x512
big nt-d --layout NT --shape 128256x17000x256
big tt-d --layout TT --shape 17000x128256x256
big nn-d --layout NN --shape 17000x128256x256
big tn-d32 --layout TN --out fp32 --shape 65536x33000x256
# Odd leading dimensions at that size: the packs (160 MiB) and the slab plans (32 MiB), D in place.
big odd-160 --layout TN --workspace-mib 160 --shape 128257x16999x511
big odd-32 --layout TN --shape 128257x16999x511
# A over 2^31 elements (TN: K-major A), B over 2^31 (NN: K-major B); long k: Stream-K plans.
big tn-a --layout TN --shape 60000x512x40000
big nn-b --layout NN --shape 512x60000x40000
# A strided batch whose batches together pass 2^31 elements (each 2^26).
big batch --layout TN --batch 33 --shape 8192x8192x128
# tf32 with an fp32 D over 2^31 elements.
big tf32 --layout TN --dtype tf32 --shape 65536x33000x128
finish
