// Cross-CTA hand-off through global memory (the Stream-K fixup): one CTA writes a partial tile
// and raises a flag, another waits for the flag and reads the partial.
//
// Ordering (PTX memory model): the writers' stores precede a CTA barrier, after which one thread
// makes a gpu-scope release store of the flag; the reader's one thread spins on gpu-scope acquire
// loads, then a CTA barrier lets the others read. Release/acquire plus the barriers order every
// writer's stores before every reader's loads. The partials go through L2 only (.cg): they were
// written by another SM, whose L1 is not coherent with this one's.
#pragma once

__device__ __forceinline__ void st_release_gpu(unsigned* flag, unsigned value) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flag), "r"(value) : "memory");
}
__device__ __forceinline__ void st_release_gpu(unsigned long long* flag, unsigned long long value) {
  asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(flag), "l"(value) : "memory");
}
__device__ __forceinline__ unsigned long long ld_acquire_gpu(const unsigned long long* flag) {
  unsigned long long v;
  asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(flag) : "memory");
  return v;
}
__device__ __forceinline__ void st_relaxed_gpu(unsigned long long* flag, unsigned long long value) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(flag), "l"(value) : "memory");
}

__device__ __forceinline__ unsigned ld_acquire_gpu(const unsigned* flag) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
  return v;
}

// Backs off a spinning thread for about `ns` nanoseconds.
__device__ __forceinline__ void nanosleep(unsigned ns) {
  asm volatile("nanosleep.u32 %0;" ::"r"(ns));
}

// 16-byte global accesses cached in L2 only.
__device__ __forceinline__ void st_cg_f32x4(float* ptr, float a, float b, float c, float d) {
  asm volatile("st.global.cg.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(ptr), "f"(a), "f"(b), "f"(c),
               "f"(d)
               : "memory");
}

__device__ __forceinline__ void ld_cg_f32x4(const float* ptr, float& a, float& b, float& c,
                                            float& d) {
  asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(a), "=f"(b), "=f"(c), "=f"(d)
               : "l"(ptr)
               : "memory");
}
