#!/usr/bin/env bash
# Session 15, main (fa11bd1): (1) what paces the staged epilogue's stores down an unaligned D's
# columns (15b: 10.9k cycles a tile; the same path on aligned columns, DG_FORCE_DOWN_LANES,
# 6.9k; TMA stores 2.4k): Nsight Compute counters of the GEMM kernel for 4095x4096x4096
# (unaligned D), 4096^3 forced down the columns, and 4096^3 (TMA stores). Predicted: the same
# store instruction count unaligned and forced; ~1.5x the L1 store sectors and L2 write
# sectors unaligned (a 64-byte run off 32 bytes touches 3 sectors, not 2); no DRAM reads
# beyond A and B (no read-modify-write of partial sectors).
# (2) issue 4's cliffs at main's final code against cuBLASLt, with 32 MiB (slab plans) and
# 160 MiB (whole copies), and PyTorch's logits shapes.
#     here:  bash scripts/gpu-pack.sh
#     there: bash scripts/gpu-session15e.sh  (.gpu carried, ~300 s)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
precompile_all
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,smsp__inst_executed_op_global_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_op_write.sum,lts__t_requests_srcunit_tex_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum
prof() {
    local name=$1; shift
    timeout 120 "$NCU" --clock-control none -k regex:dg_sm90 --metrics $M "$B" "$@" \
        --no-cublas --iters 1 --warmup 1 --check none --no-flush >"$OUT/ncu-$name.txt" 2>&1
    echo "== $name rc=$? ${SECONDS}s"
    grep -E "^    [a-z_]+__|^  dg_sm90" "$OUT/ncu-$name.txt" | tail -9 | awk '{print $1, $(NF)}'
}
prof unaligned --shape 4095x4096x4096
DEEPGEMM_NVRTC_DEFINES=DG_FORCE_DOWN_LANES prof forced --shape 4096x4096x4096
prof tma --shape 4096x4096x4096
S="--shape 4096x4096x4096 --shape 4097x4097x4097 --shape 4095x4095x4095 --shape 4100x4100x4100 --shape 127x4095x4096 --shape 1000x3000x4000"
bench cliffs-32 $S --workspace-mib 32
bench cliffs-160 $S --workspace-mib 160
bench logits --shape 50257x8192x768 --shape 50304x8192x768 --iters 10 --warmup 2
finish
