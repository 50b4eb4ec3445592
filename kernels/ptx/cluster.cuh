// Thread-block clusters (sm_90): a CTA's rank in its cluster, the cluster-wide barrier, and
// addresses in a peer CTA's shared memory (distributed shared memory).
#pragma once

__device__ __forceinline__ unsigned cluster_ctarank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

// The cluster's index in the grid along x, and the number of clusters along x.
__device__ __forceinline__ unsigned cluster_id_x() {
  unsigned r;
  asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned cluster_count_x() {
  unsigned r;
  asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(r));
  return r;
}

// Every thread of every CTA in the cluster arrives, then waits for all of them: orders the
// shared-memory (and mbarrier) writes before it with the accesses of any peer after it. Not
// .aligned: the threads of a warp may arrive from different branches.
__device__ __forceinline__ void cluster_sync() {
  asm volatile(
      "barrier.cluster.arrive.release;\n"
      "barrier.cluster.wait.acquire;" ::
          : "memory");
}

// The .shared::cluster address of the variable at .shared offset `addr` in CTA `rank` of the
// cluster.
__device__ __forceinline__ unsigned map_shared_rank(unsigned addr, unsigned rank) {
  unsigned r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(rank));
  return r;
}

// cluster_sync in two halves, so that a CTA works between them: every thread arrives once,
// and waits (acquire) only before its first access to a peer. A relaxed arrival after
// fence.mbarrier_init.release.cluster (ptx/fence.cuh) still publishes the barrier
// initialisation to the peers' waits.
__device__ __forceinline__ void cluster_arrive_relaxed() {
  asm volatile("barrier.cluster.arrive.relaxed;" ::: "memory");
}
__device__ __forceinline__ void cluster_wait() {
  asm volatile("barrier.cluster.wait.acquire;" ::: "memory");
}
