// Integer, clock and float instructions with no C++ spelling that NVRTC compiles without headers.
#pragma once

// The high 32 bits of the 64-bit product a * b (the multiply of a division by multiply and
// shift, sm90/types.cuh `FastDiv`).
__device__ __forceinline__ unsigned mul_hi_u32(unsigned a, unsigned b) {
  unsigned hi;
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(hi) : "r"(a), "r"(b));
  return hi;
}

// max(a, b) where a NaN in either gives NaN (fmaxf returns the other operand): one FMNMX.
__device__ __forceinline__ float fmax_nan(float a, float b) {
  float r;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}

// The SM's cycle counter (one for all threads of a CTA). Volatile: each read is a fresh sample.
__device__ __forceinline__ long long clock64_now() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

// The global nanosecond timer (the same on every SM).
__device__ __forceinline__ long long globaltimer_ns() {
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// The thread's lane in its warp, read afresh each time (volatile): values derived from it in a
// loop body cannot be hoisted out of the loop and kept in registers across it (an epilogue's
// per-lane offsets, live across the mainloop next to 128 accumulators, made ptxas spill).
__device__ __forceinline__ int lane_id_volatile() {
  int lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}
