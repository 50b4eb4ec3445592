// Device half of scripts/probes/pitch-ingest.cu (kept apart so that NVRTC can compile-check it
// without the toolkit's headers: scripts/probes/nvrtc-check.py).
//
// One CTA an SM fills a ring of (BM + BN)-row stages, 64 k (128 bytes) a row with the 128-byte
// swizzle, from L2-resident K-major operands whose rows are `pitch` bytes apart; one consumer
// thread releases each stage as soon as it is full. Two producers:
//   - ingest_tma: one thread issues an A box and a B box a stage (the kernel's loads);
//   - ingest_cp: the 128 threads of a producer warpgroup copy the stage's 16-byte chunks with
//     cp.async (each chunk 16-byte aligned whenever the pitch is a multiple of 16) into the
//     same swizzled places, and each thread's `cp.async.mbarrier.arrive.noinc` arrives on the
//     stage's full barrier once its copies have landed.
// The consumer's cycles from the first full stage to the last, per CTA, go to g_cycles.
#pragma once

#include "ptx/fence.cuh"
#include "ptx/mbarrier.cuh"
#include "ptx/smem.cuh"
#include "ptx/special.cuh"
#include "ptx/tma.cuh"

// A tensor map as a kernel parameter: CUtensorMap's layout (128 opaque bytes, 64-byte
// aligned), declared here so that the device code needs no toolkit header.
struct alignas(64) CUtensorMapProbe {
  unsigned long long opaque[16];
};

constexpr int kMaxStages = 16;
constexpr int kCpThreads = 128;
__device__ long long g_cycles[1024];

// The probe's own wrappers (not the library's: it has no cp.async producer).
__device__ __forceinline__ void probe_cp_async_16(unsigned dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
}
// The barrier gets this thread's arrival once all of its earlier cp.async copies are complete
// (.noinc: the arrival is one of the barrier's expected count).
__device__ __forceinline__ void probe_cp_async_arrive(unsigned bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(bar) : "memory");
}

// The consumer: waits for each stage, releases it at once, records its cycles.
__device__ __forceinline__ void probe_consume(unsigned long long* full, unsigned long long* empty,
                                              int stages, int iters) {
  long long t0 = 0;
  for (int i = 0; i < iters; ++i) {
    const int s = i % stages;
    const unsigned ph = static_cast<unsigned>(i / stages) & 1u;
    mbarrier_wait_parity(smem_addr(&full[s]), ph);
    if (i == 0) {
      t0 = clock64_now();
    }
    mbarrier_arrive(smem_addr(&empty[s]));
  }
  g_cycles[blockIdx.x] = clock64_now() - t0;
}

// Both producers' prologue: the ring's first byte on the swizzle period, its barriers
// initialised (a full barrier expects `full_count` arrivals, an empty one the consumer's), and
// the CTA past them.
__device__ __forceinline__ unsigned probe_ring_setup(const unsigned char* smem_raw,
                                                     unsigned long long* full,
                                                     unsigned long long* empty, int stages,
                                                     unsigned full_count) {
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      mbarrier_init(smem_addr(&full[s]), full_count);
      mbarrier_init(smem_addr(&empty[s]), 1);
    }
    fence_barrier_init();
  }
  __syncthreads();
  const unsigned raw = smem_addr(smem_raw);
  return raw + ((1024u - (raw & 1023u)) & 1023u);
}

// 64 threads: thread 0 produces, thread 32 consumes. The maps view each operand as (64 k, row,
// k-slab) with the row stride the pitch, as the kernel's K-major maps do, or (`flat`) as (k, row).
extern "C" __global__ void __launch_bounds__(64, 1)
    ingest_tma(const __grid_constant__ CUtensorMapProbe ta, const __grid_constant__ CUtensorMapProbe tb,
               int bm, int bn, int stages, int iters, int a_tiles, int b_tiles, int k_iters,
               int flat) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  __shared__ unsigned long long full[kMaxStages];
  __shared__ unsigned long long empty[kMaxStages];
  const unsigned base = probe_ring_setup(smem_raw, full, empty, stages, 1);
  const int stage_bytes = (bm + bn) * 128;
  const int a_row = (static_cast<int>(blockIdx.x) % a_tiles) * bm;
  const int b_row = (static_cast<int>(blockIdx.x) % b_tiles) * bn;
  if (threadIdx.x == 0) {
    for (int i = 0; i < iters; ++i) {
      const int s = i % stages;
      const unsigned ph = static_cast<unsigned>(i / stages) & 1u;
      mbarrier_wait_parity(smem_addr(&empty[s]), ph ^ 1u);
      const unsigned f = smem_addr(&full[s]);
      mbarrier_arrive_expect_tx(f, stage_bytes);
      const int k = i % k_iters;
      const unsigned dst_a = base + s * stage_bytes;
      // `flat`: the maps are (k, row, 1), the box's k at k * 64 (session 67's question: does
      // the map's form change the L2 requests of a mid-sector line?).
      tma_load_3d(dst_a, &ta, f, flat ? k * 64 : 0, a_row, flat ? 0 : k);
      tma_load_3d(dst_a + bm * 128, &tb, f, flat ? k * 64 : 0, b_row, flat ? 0 : k);
    }
  } else if (threadIdx.x == 32) {
    probe_consume(full, empty, stages, iters);
  }
}

// 160 threads: 0-127 produce with cp.async, 128 consumes.
extern "C" __global__ void __launch_bounds__(160, 1)
    ingest_cp(const char* a, const char* b, long long pitch, int bm, int bn, int stages, int iters,
              int a_tiles, int b_tiles, int k_iters) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  __shared__ unsigned long long full[kMaxStages];
  __shared__ unsigned long long empty[kMaxStages];
  const unsigned base = probe_ring_setup(smem_raw, full, empty, stages, kCpThreads);
  const int stage_bytes = (bm + bn) * 128;
  const int a_row = (static_cast<int>(blockIdx.x) % a_tiles) * bm;
  const int b_row = (static_cast<int>(blockIdx.x) % b_tiles) * bn;
  if (threadIdx.x < kCpThreads) {
    const int chunks = (bm + bn) * 8;  // 16-byte chunks a stage, 8 a row
    for (int i = 0; i < iters; ++i) {
      const int s = i % stages;
      const unsigned ph = static_cast<unsigned>(i / stages) & 1u;
      mbarrier_wait_parity(smem_addr(&empty[s]), ph ^ 1u);
      const long long k_bytes = static_cast<long long>(i % k_iters) * 128;
      const unsigned dst0 = base + s * stage_bytes;
      for (int c = static_cast<int>(threadIdx.x); c < chunks; c += kCpThreads) {
        const int row = c >> 3;
        const int col = c & 7;
        const char* src = row < bm ? a + (a_row + row) * pitch : b + (b_row + row - bm) * pitch;
        // The 128-byte swizzle: chunk col of row r lands at chunk col ^ (r % 8) (bm is a
        // multiple of 8, so B's rows keep the pattern).
        probe_cp_async_16(dst0 + row * 128 + ((col ^ (row & 7)) << 4), src + k_bytes + col * 16);
      }
      probe_cp_async_arrive(smem_addr(&full[s]));
    }
  } else if (threadIdx.x == kCpThreads) {
    probe_consume(full, empty, stages, iters);
  }
}
