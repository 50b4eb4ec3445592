// Distributed shared memory (sm_90 clusters): stores into a peer CTA's shared memory, and the
// cluster-scope mbarrier operations that hand such data over (split-K inside a cluster,
// kernels/sm90/gemm.cuh). Addresses are .shared::cluster addresses from map_shared_rank
// (ptx/cluster.cuh), or this CTA's .shared offsets where marked.
#pragma once

// 16 bytes into a peer CTA's shared memory (`addr` from map_shared_rank, 16-byte aligned).
__device__ __forceinline__ void st_shared_cluster_f32x4(unsigned addr, float a, float b, float c,
                                                        float d) {
  asm volatile("st.shared::cluster.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "f"(a), "f"(b),
               "f"(c), "f"(d)
               : "memory");
}

// 16 bytes from this CTA's shared memory (`addr` a .shared offset, 16-byte aligned).
__device__ __forceinline__ void ld_shared_f32x4(unsigned addr, float& a, float& b, float& c,
                                                float& d) {
  asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(a), "=f"(b), "=f"(c), "=f"(d)
               : "r"(addr)
               : "memory");
}

// One arrival on a barrier of any CTA of the cluster with cluster-scope release: this
// thread's earlier shared-memory accesses (its stores into the peer, or its reads of what the
// peer stored) happen before anything a cluster-scope acquire of the completed phase does.
__device__ __forceinline__ void mbarrier_arrive_release_cluster(unsigned bar) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(bar)
               : "memory");
}

// Waits, with cluster-scope acquire, for the phase of parity `parity` of this CTA's barrier
// `bar` (a .shared offset) whose arrivals come from peer CTAs.
__device__ __forceinline__ void mbarrier_wait_parity_acquire_cluster(unsigned bar, unsigned parity) {
  unsigned done = 0;
  while (done == 0) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  }
}
