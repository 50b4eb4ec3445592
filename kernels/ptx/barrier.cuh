// Named CTA barriers: synchronise a subset of warps (here one warpgroup) without stopping the
// others. Barrier 0 is __syncthreads()'s.
#pragma once

// Waits until `threads` threads (a multiple of 32) have arrived at barrier `id`; orders their
// shared-memory accesses like __syncthreads() does for the whole CTA.
__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
