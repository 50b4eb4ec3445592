#!/usr/bin/env bash
# Session 56, one call (~8 min with a devcache; pack main first): tf32 NT on the Hopper kernel
# through a transposed copy (B copied K-major into the workspace, or A with the problem computed
# transposed; before, the portable kernel ran it). CPU-tested only before this call.
#     here:  bash scripts/gpu-pack.sh  (cp a devcache to .gpu/cubins.txz)
#     there: timeout 590 bash scripts/gpu-session56a.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
# 1. The transposing copy alone, bit for bit (ragged tiles, odd leading dimensions, shifts,
# broadcast batches), and its bandwidth. Predicted: all pass; ~65% of the peak DRAM rate
# (~2.2 TB/s on an H100, ~3.1 on an H200).
timeout 120 .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture \
    pack_kernel_copies_transposed transpose_kernel_bandwidth >"$OUT/pack-transposed.txt" 2>&1
echo "== transposed copies rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/pack-transposed.txt")"
grep -m6 -E "FAIL|panicked|TB/s|passed" "$OUT/pack-transposed.txt"
# 2. tf32 NT through deepgemmLtMatmul against the float64 reference: either orientation,
# ragged, odd lds and batch strides, shifted pointers, epilogues, no workspace (portable) and
# too little (blocks). Predicted: all pass, every plan as expected.
timeout 200 .gpu/tests/gpu_pack --ignored --test-threads=1 --nocapture tf32_nt \
    >"$OUT/pack-tf32nt.txt" 2>&1
echo "== tf32_nt rc=$? ${SECONDS}s: $(grep '^test result' "$OUT/pack-tf32nt.txt")"
grep -m8 -E "FAIL|panicked|passed" "$OUT/pack-tf32nt.txt"
# 4. Timing against cuBLASLt (its NT tf32), 512 MiB and PyTorch's 32 MiB of workspace, and the
# portable kernel it ran before (DEEPGEMM_KERNELS=portable). Predicted: 4096³ ~0.85x cuBLASLt
# (the copy ~55 us beside a ~340 us GEMM), 0.3x before; small-m / small-n shapes copy the small
# operand (A computed transposed where m < n); 32 MiB: blocks for the large ones, ~0.75x.
# In order of need: the call may be cut short (`finish` still packs what ran).
S="--shape 4096x4096x4096 --shape 8192x8192x8192 --shape 1024x4096x8192 --shape 4096x1024x8192 --shape 4096x14336x8192 --shape 2048x2048x2048 --shape 127x4095x4096"
bench nt-512 --dtype tf32 --layout NT --workspace-mib 512 --iters 20 --warmup 3 --check sample $S
DEEPGEMM_KERNELS=portable bench nt-portable --dtype tf32 --layout NT --iters 5 --warmup 1 --check none \
    --shape 4096x4096x4096 --shape 1024x4096x8192 --shape 2048x2048x2048
# 3. The gpu_matmul groups that take tf32 in every transpose (now NT on the new path).
timeout 120 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture \
    shapes_types_transposes strided_batch >"$OUT/grid-tf32.txt" 2>&1
echo "== gpu_matmul rc=$? ${SECONDS}s: $(groups "$OUT/grid-tf32.txt")"
bench nt-32 --dtype tf32 --layout NT --workspace-mib 32 --iters 20 --warmup 3 --check sample $S
# Time left in the call (~590 s): one round of the walk comparison (gpu-session56b.sh's).
if [ $SECONDS -lt 360 ]; then
    W="--no-cublas --check none --iters 20 --warmup 3 --shapes .gpu/shapes/walk-56.txt"
    bench walk-default-1 $W
    DEEPGEMM_GROUP_M=4096 bench walk-columns-1 $W
fi
finish
