// mbarrier: the shared-memory barriers with a transaction count that TMA completes on.
// Addresses are .shared offsets (smem_addr); phases are tracked by the caller as parity bits.
#pragma once

__device__ __forceinline__ void mbarrier_init(unsigned bar, unsigned arrival_count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(arrival_count) : "memory");
}

// One arrival that also raises the phase's expected transaction count by `bytes`; the phase
// completes when every arrival is in and that many bytes have landed (complete_tx).
__device__ __forceinline__ void mbarrier_arrive_expect_tx(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void mbarrier_arrive(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

// One arrival on a barrier in any CTA of the cluster (`bar` from map_shared_rank), with the
// default (.release.cta) semantics, as CUTLASS's ClusterBarrier: what it orders are wgmma reads
// of this CTA's own shared memory, complete once wgmma.wait_group returned. (.release.cluster
// adds a cluster-scope fence to every arrival, once per k-step and warp.)
__device__ __forceinline__ void mbarrier_arrive_cluster(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];" ::"r"(bar) : "memory");
}

// True once the phase with parity `parity` has completed. try_wait may suspend the thread for
// a system-dependent time before giving up, so a spin on it does not hammer the barrier.
__device__ __forceinline__ bool mbarrier_try_wait_parity(unsigned bar, unsigned parity) {
  unsigned done;
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n"
      "}\n"
      : "=r"(done)
      : "r"(bar), "r"(parity)
      : "memory");
  return done != 0;
}

__device__ __forceinline__ void mbarrier_wait_parity(unsigned bar, unsigned parity) {
  while (!mbarrier_try_wait_parity(bar, parity)) {
  }
}
