// Programmatic dependent launch (sm_90+). A grid launched with the programmatic-serialisation
// attribute may start while the kernel before it on the stream still runs: its prologue
// (shared-memory carve-up, barrier inits, tensor-map prefetches) overlaps that kernel's tail.
// Both instructions are no-ops for a grid launched without the attribute.
#pragma once

// Waits until every prerequisite grid has completed and its memory operations are visible.
// Nothing may read or write global memory the previous kernel might touch before this.
// DG_PDL_NO_WAIT (a measurement define, never a production build) drops the wait: the
// negative control showing that tests/gpu_matmul.rs `back_to_back_dependent_calls` catches
// the race. It reaches the sm90 kernels only (DEEPGEMM_NVRTC_DEFINES, src/jit/sm90.rs): the
// pack kernels are built without the experiment defines, so their wait is not under it.
__device__ __forceinline__ void griddep_wait() {
#ifndef DG_PDL_NO_WAIT
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Lets the next programmatically dependent grid be scheduled once every CTA of this one has
// issued it (or exited). Once per CTA is enough; it says nothing about this grid's writes,
// which the dependent sees only through its own griddep_wait.
__device__ __forceinline__ void griddep_launch_dependents() {
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}
