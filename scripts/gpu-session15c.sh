#!/usr/bin/env bash
# Session 15, branch next/slabs: odd leading dimensions within a bounded workspace. When the
# caller's workspace is smaller than the whole packed copies (PyTorch's 32 MiB against 68 MB
# at 4097^3), D is cut into blocks (plan::slab) that pack their own rows of A / columns of B
# and run one after another; before, such calls ran the portable kernel (0.33-0.61x
# cuBLASLt, session 7). Host code only; the kernels are main's (d108ab9).
# Predicted: every gpu_pack group and the gpu_matmul grid pass (gemm::run now prepares every
# block's launches before the first); with 32 MiB 4097^3 takes slab2x3 at ~400 us (model 397)
# against cuBLASLt's ~1.2 ms (~3x; the portable kernel took 2-3.7 ms), 4095^3 and 4100^3
# alike; NN 768x8192x50257 (B odd only, PyTorch's logits gradient at vocabulary 50257) slab1x32,
# model 3.5 ms. With 160 MiB the whole-copy plans as before (4097^3 ~280 us).
#     here:  git checkout next/slabs && bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session15c.sh  (.gpu carried, ~330 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
timeout 150 .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture \
    too_little_workspace odd_leading_dimensions misaligned_base odd_batch odd_d >"$OUT/pack.txt" 2>&1
echo "gpu_pack rc=$? ${SECONDS}s: $(groups "$OUT/pack.txt")"
timeout 200 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture >"$OUT/matmul.txt" 2>&1
echo "gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/matmul.txt")"
S="--shape 4097x4097x4097 --shape 4095x4095x4095 --shape 4100x4100x4100 --shape 4096x4096x4096 --iters 10 --warmup 2"
bench ws32 $S --workspace-mib 32
bench ws160 $S --workspace-mib 160
bench nn-ws32 --layout NN --shape 768x8192x50257 --iters 5 --warmup 1 --workspace-mib 32
bench nn-ws1024 --layout NN --shape 768x8192x50257 --iters 5 --warmup 1 --workspace-mib 1024
finish
