// Plain (non-tensor) bulk copies, sm_90: `bytes` of contiguous global memory into shared memory
// by the TMA engine, completing on an mbarrier. PTX ISA "cp.async.bulk". No tensor map: any
// 16-byte aligned run of a multiple of 16 bytes.
#pragma once

// Copies `bytes` (a multiple of 16) from `src` (16-byte aligned) to shared offset `dst`
// (16-byte aligned) and signals `bar` with that many bytes.
__device__ __forceinline__ void bulk_load(unsigned dst, const void* src, unsigned bytes, unsigned bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   dst),
               "l"(src), "r"(bytes), "r"(bar)
               : "memory");
}

// As bulk_load, the lines it reads marked in L2 by `policy` (tma.cuh l2_policy_evict_first).
__device__ __forceinline__ void bulk_load_hint(unsigned dst, const void* src, unsigned bytes, unsigned bar,
                                               unsigned long long policy) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
      " [%0], [%1], %2, [%3], %4;" ::"r"(dst),
      "l"(src), "r"(bytes), "r"(bar), "l"(policy)
      : "memory");
}
