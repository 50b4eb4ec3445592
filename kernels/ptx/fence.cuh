// Memory-model fences between the generic proxy (ordinary loads/stores) and the async proxy
// (TMA, wgmma operand reads), and for barrier initialisation.
#pragma once

// mbarrier.init is a generic-proxy write; the TMA engine (and, with clusters, the other CTAs)
// must see the initialised barrier before they signal it.
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// Orders this thread's earlier generic-proxy shared-memory accesses before later async-proxy
// accesses (TMA stores reading smem written by st.shared / stmatrix).
__device__ __forceinline__ void fence_view_async_shared() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
