// TMA (the bulk tensor copy engine): tile loads described by a CUtensorMap.
#pragma once

// Brings the 128-byte tensor map into the descriptor cache ahead of the first copy. `tmap`
// is the generic address of a __grid_constant__ kernel parameter.
__device__ __forceinline__ void tma_prefetch_descriptor(const void* tmap) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(tmap) : "memory");
}

// Copies one box at coordinates (c0 innermost, c1, c2) of a rank-3 tensor map into shared
// memory at `dst` and signals `bar` with the box's byte count (out-of-bounds elements are
// zero-filled and still counted). With a cluster of one, the CTA's own .shared offsets are
// valid .shared::cluster addresses.
__device__ __forceinline__ void tma_load_3d(unsigned dst, const void* tmap, unsigned bar, int c0,
                                            int c1, int c2) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4, %5}], [%2];" ::"r"(dst),
      "l"(tmap), "r"(bar), "r"(c0), "r"(c1), "r"(c2)
      : "memory");
}

// As tma_load_3d, delivered to the same shared-memory offset in every CTA of the cluster whose
// bit is set in `cta_mask`, each of which is signalled on its mbarrier at offset `bar`.
__device__ __forceinline__ void tma_load_3d_multicast(unsigned dst, const void* tmap, unsigned bar,
                                                      int c0, int c1, int c2,
                                                      unsigned short cta_mask) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%3, %4, %5}], [%2], %6;" ::"r"(dst),
      "l"(tmap), "r"(bar), "r"(c0), "r"(c1), "r"(c2), "h"(cta_mask)
      : "memory");
}

// Asks L2 for the box at coordinates (c0 innermost, c1, c2) of a rank-3 tensor map; nothing
// waits for it (PTX ISA "cp.async.bulk.prefetch.tensor").
__device__ __forceinline__ void tma_prefetch_3d(const void* tmap, int c0, int c1, int c2) {
  asm volatile("cp.async.bulk.prefetch.tensor.3d.L2.global.tile [%0, {%1, %2, %3}];" ::"l"(tmap),
               "r"(c0), "r"(c1), "r"(c2)
               : "memory");
}

// An L2 policy that marks the lines a load brings in as the first to evict (PTX ISA
// "createpolicy"): for data read once, so that it replaces itself instead of lines other
// kernels (or the rest of this one) still want, or dirty lines that would cost a write-back.
__device__ __forceinline__ unsigned long long l2_policy_evict_first() {
  unsigned long long policy;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

// As tma_load_3d, with an L2 policy (l2_policy_evict_first) for the lines it reads.
__device__ __forceinline__ void tma_load_3d_hint(unsigned dst, const void* tmap, unsigned bar,
                                                 int c0, int c1, int c2,
                                                 unsigned long long policy) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      ".L2::cache_hint [%0], [%1, {%3, %4, %5}], [%2], %6;" ::"r"(dst),
      "l"(tmap), "r"(bar), "r"(c0), "r"(c1), "r"(c2), "l"(policy)
      : "memory");
}

// Starts bringing `bytes` (a multiple of 16) of global memory at `src` (16-byte aligned) into
// L2, asynchronously; nothing waits for it (PTX ISA "cp.async.bulk.prefetch").
__device__ __forceinline__ void bulk_prefetch_l2(const void* src, unsigned bytes) {
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(src), "r"(bytes) : "memory");
}

// Asks L2 for the 128-byte line holding `addr` (any alignment); nothing waits for it (PTX ISA
// "prefetch"). For runs the bulk form cannot take: C's columns at an odd leading dimension.
__device__ __forceinline__ void prefetch_l2(const void* addr) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(addr));
}

// Asks for the 128-byte line holding `addr` to be brought into this SM's L1; nothing waits for
// it (PTX ISA "prefetch"). For a few lines the epilogue will read with plain loads long after.
__device__ __forceinline__ void prefetch_l1(const void* addr) {
  asm volatile("prefetch.global.L1 [%0];" ::"l"(addr));
}
