// Phase timestamps for locating a kernel's fixed costs: compiled in only with -DDG_TRACE
// (the library passes it when DEEPGEMM_NVRTC_DEFINES=DG_TRACE). Without it every call below
// compiles to nothing, so the production kernels are unchanged.
//
// A thread marks the phases it passes (SM clock, `%clock64`, one counter for all threads of a
// CTA) and, at its end, the first and last CTA of the grid store them in `dg_trace`, which the
// library reads back after each traced launch (src/runtime/trace.rs) and prints. No printf:
// a call anywhere in the kernel makes ptxas serialise every wgmma (C7510).
#pragma once

#include "ptx/special.cuh"

#ifdef DG_TRACE
// [first / last CTA][role: producer, consumer 0][CTA index, globaltimer ns at entry, then the
// clocks of marks 1..11 after mark 0, -1 where a mark was not reached, then the globaltimer ns
// from entry to the store]. Unmangled, so that the host finds it by name (cuLibraryGetGlobal).
extern "C" {
__device__ long long dg_trace[2][2][14];
// Every CTA's span, globaltimer ns: [CTA][entry, last consumer warpgroup's end]
// (CTAs past 1024 are not kept). The host prints their spread: what a launch's
// duration holds beyond the first and last CTA's marks.
__device__ unsigned long long dg_trace_span[1024][2];
// CTA 0's first TMA-store epilogue, per consumer warpgroup (thread 0 of each): [0] its entry
// (SM clock), then per 64-column box j the clocks after the buffer's wait and barrier
// [1 + 3j], after the box's stmatrix and async-proxy fence [2 + 3j], and after the second
// barrier and the store's issue [3 + 3j]; 0 where not reached. Printed as `dg_epi` lines.
__device__ unsigned long long dg_trace_epi[2][16];
}
#endif

namespace dg_sm90 {

// The TMA-store epilogue's clocks (dg_trace_epi above): one a phase of each box, kept in
// registers and written once, at the end of the first epilogue of CTA 0's consumers.
template <int kBoxes>
struct EpiTrace {
#ifdef DG_TRACE
  static constexpr int kSlots = 1 + 3 * kBoxes < 16 ? 1 + 3 * kBoxes : 16;
  unsigned long long t[kSlots];
  bool on;
#endif
  __device__ __forceinline__ void begin(bool first_tile) {
#ifdef DG_TRACE
    on = first_tile && blockIdx.x == 0;
#pragma unroll
    for (int i = 0; i < kSlots; ++i) {
      t[i] = 0;
    }
    t[0] = static_cast<unsigned long long>(clock64_now());
#endif
  }
  __device__ __forceinline__ void mark(int slot) {
#ifdef DG_TRACE
#pragma unroll
    for (int i = 1; i < kSlots; ++i) {
      if (i == slot) {
        t[i] = static_cast<unsigned long long>(clock64_now());
      }
    }
#endif
  }
  __device__ __forceinline__ void store(int tid) const {
#ifdef DG_TRACE
    if (on && tid == 0) {
      unsigned long long* out = dg_trace_epi[threadIdx.x / 128 - 1];
#pragma unroll
      for (int i = 0; i < kSlots; ++i) {
        out[i] = t[i];
      }
    }
#endif
  }
};

struct PhaseTrace {
#ifdef DG_TRACE
  static constexpr int kMarks = 12;
  long long t[kMarks];
  long long start_ns;
#endif

  __device__ __forceinline__ void begin() {
#ifdef DG_TRACE
    start_ns = globaltimer_ns();
#pragma unroll
    for (int i = 0; i < kMarks; ++i) {
      t[i] = -1;
    }
    mark<0>();
#endif
  }

  template <int I>
  __device__ __forceinline__ void mark() {
#ifdef DG_TRACE
    static_assert(I < kMarks, "PhaseTrace has kMarks marks");
    t[I] = clock64_now();
#endif
  }

  // Consumer warpgroup tid 0's end (after the last tile's stores are issued): the CTA's entry
  // and the later of its warpgroups' ends into dg_trace_span.
  __device__ __forceinline__ void span_end() const {
#ifdef DG_TRACE
    if (blockIdx.x < 1024) {
      dg_trace_span[blockIdx.x][0] = start_ns;
      atomicMax(&dg_trace_span[blockIdx.x][1], static_cast<unsigned long long>(globaltimer_ns()));
    }
#endif
  }

  // role 0: the producer thread, 1: consumer 0's first thread.
  __device__ __forceinline__ void store(int role) const {
#ifdef DG_TRACE
    const int slot = blockIdx.x == 0 ? 0 : (blockIdx.x + 1 == gridDim.x ? 1 : -1);
    if (slot >= 0) {
      long long* out = dg_trace[slot][role];
      out[0] = blockIdx.x;
      out[1] = start_ns;
#pragma unroll
      for (int i = 1; i < kMarks; ++i) {
        out[1 + i] = t[i] < 0 ? -1 : t[i] - t[0];
      }
      out[kMarks + 1] = globaltimer_ns() - start_ns;
    }
#endif
  }
};

}  // namespace dg_sm90
