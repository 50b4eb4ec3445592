// TMA stores: shared memory -> global through a tensor map, tracked by bulk async-groups.
// PTX ISA sections "cp.async.bulk.tensor", "cp.async.bulk.commit_group" and
// "cp.async.bulk.wait_group".
//
// Async-groups are per thread: the thread that issues and commits the stores is the one that
// must wait for them. The source tile must be made visible to the async proxy first
// (fence_view_async_shared, ptx/fence.cuh, by every thread that wrote it, then a barrier).
#pragma once

// Stores the box at coordinates (c0 innermost, c1, c2) of a rank-3 tensor map from shared
// memory at `src`. Elements of the box outside the tensor's extents are not written.
__device__ __forceinline__ void tma_store_3d(const void* tmap, unsigned src, int c0, int c1,
                                             int c2) {
  asm volatile(
      "cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];" ::"l"(
          tmap),
      "r"(src), "r"(c0), "r"(c1), "r"(c2)
      : "memory");
}

// Closes the bulk async-group of this thread's stores issued since the last commit.
__device__ __forceinline__ void tma_store_commit() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

// Returns once at most N of this thread's committed groups still read their shared-memory
// source: the other groups' buffers may be overwritten (their global writes may be pending).
template <int N>
__device__ __forceinline__ void tma_store_wait_read() {
  static_assert(N >= 0 && N <= 7, "wait_group takes a small count");
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}

