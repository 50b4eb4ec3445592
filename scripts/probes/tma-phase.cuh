// Device half of scripts/probes/tma-phase.cu (kept apart so that NVRTC can compile-check it
// without the toolkit's headers: scripts/probes/nvrtc-check.py).
//
// The question (issue 4, 4095³ at 74% of 4096³'s rate): can TMA read a K-major operand whose
// rows are not 16 bytes apart (an odd leading dimension, or a base address off the 16-byte
// grid) where it is, instead of packing a copy (~23 us an operand at 4095³)? A tensor map needs
// 16-byte strides and a 16-byte aligned base, but rows r and r + P are P * ld * esize bytes
// apart, a multiple of 16 for P = 16 / gcd(ld * esize, 16) (8 for an odd bf16 ld). So the rows
// of each phase s = r mod P form a tensor TMA can describe: base at row s's address rounded
// down to 16 bytes, the k coordinate shifted by what the rounding took off (delta_s elements),
// rows q = (r - s) / P. A tile of BM rows is then P boxes of BM / P rows, phase by phase, and
// the tile's rows land in shared memory permuted (phase-major), which a GEMM undoes in its
// epilogue (rows of D in the order the accumulators hold them).
//
// Two kernels:
//   - phase_copy: one CTA loads the P boxes of one tile (64 k or 32 fp32 words deep, 128-byte
//     swizzle) at coordinates (k0 + delta_s, q0) and copies shared memory out as it is; the host
//     checks every byte against the swizzled layout it expects (does an unaligned start
//     coordinate load the right elements, and zero-fill past k's end?).
//   - phase_ingest: as tma-ingest.cu / pitch-ingest.cuh's ingest_tma (one CTA an SM, a ring of
//     (BM + BN)-row stages, one consumer thread releasing each stage at once), the stage loaded
//     as P boxes of A and P of B, issued by `issuers` lanes of warp 0. Its cycles a stage against
//     the one-box stage say what the boxes and the unaligned starts cost.
#pragma once

#include "ptx/fence.cuh"
#include "ptx/mbarrier.cuh"
#include "ptx/smem.cuh"
#include "ptx/special.cuh"

// CUtensorMap's layout (128 opaque bytes, 64-byte aligned), so the device code needs no
// toolkit header.
struct alignas(64) PhaseTmap {
  unsigned long long opaque[16];
};

constexpr int kMaxPhases = 8;

// One operand's phase maps and each phase's k shift (delta_s, elements).
struct alignas(64) PhaseMaps {
  PhaseTmap map[kMaxPhases];
  int delta[kMaxPhases];
};

constexpr int kPhaseMaxStages = 16;
__device__ long long g_phase_cycles[1024];

// A box of a rank-2 tensor map at (c0 innermost, c1) into shared memory at `dst`, signalling
// `bar` with its bytes (the probe's own wrapper: the library's maps are rank 3).
__device__ __forceinline__ void phase_tma_load_2d(unsigned dst, const void* tmap, unsigned bar,
                                                  int c0, int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];" ::"r"(dst),
      "l"(tmap), "r"(bar), "r"(c0), "r"(c1)
      : "memory");
}

// 128 threads. Loads the `phases` boxes of `box_rows` rows each (box s from maps.map[s] at
// (k0 + delta_s, q0)) one after another from the ring's first byte, then copies the
// phases * box_rows * 128 bytes to `out`.
extern "C" __global__ void __launch_bounds__(128, 1)
    phase_copy(const __grid_constant__ PhaseMaps maps, int phases, int box_rows, int k0, int q0,
               unsigned* out) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  __shared__ unsigned long long bar;
  const unsigned raw = smem_addr(smem_raw);
  const unsigned pad = (1024u - (raw & 1023u)) & 1023u;
  const unsigned base = raw + pad;
  const unsigned box_bytes = static_cast<unsigned>(box_rows) * 128u;
  if (threadIdx.x == 0) {
    mbarrier_init(smem_addr(&bar), 1);
    fence_barrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    mbarrier_arrive_expect_tx(smem_addr(&bar), box_bytes * static_cast<unsigned>(phases));
    for (int s = 0; s < phases; ++s) {
      phase_tma_load_2d(base + s * box_bytes, &maps.map[s], smem_addr(&bar), k0 + maps.delta[s],
                        q0);
    }
  }
  mbarrier_wait_parity(smem_addr(&bar), 0);
  const unsigned words = box_bytes * static_cast<unsigned>(phases) / 4u;
  const unsigned* src = reinterpret_cast<const unsigned*>(smem_raw + pad);
  for (unsigned w = threadIdx.x; w < words; w += blockDim.x) {
    out[w] = src[w];
  }
}

// 64 threads: lanes 0..issuers-1 of warp 0 produce, thread 32 consumes. Each stage: A's tile of
// bm rows as `phases` boxes of bm / phases rows (from a.map[s] at (64 i + delta_s, a_row /
// phases)), then B's likewise; lane l issues phases l, l + issuers, ... of both.
extern "C" __global__ void __launch_bounds__(64, 1)
    phase_ingest(const __grid_constant__ PhaseMaps a, const __grid_constant__ PhaseMaps b, int bm,
                 int bn, int phases, int issuers, int stages, int iters, int a_tiles, int b_tiles,
                 int k_iters) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  __shared__ unsigned long long full[kPhaseMaxStages];
  __shared__ unsigned long long empty[kPhaseMaxStages];
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      mbarrier_init(smem_addr(&full[s]), 1);
      mbarrier_init(smem_addr(&empty[s]), 1);
    }
    fence_barrier_init();
  }
  __syncthreads();
  const unsigned raw = smem_addr(smem_raw);
  const unsigned base = raw + ((1024u - (raw & 1023u)) & 1023u);
  const int stage_bytes = (bm + bn) * 128;
  const int a_box = bm / phases * 128;
  const int b_box = bn / phases * 128;
  const int a_q = (static_cast<int>(blockIdx.x) % a_tiles) * bm / phases;
  const int b_q = (static_cast<int>(blockIdx.x) % b_tiles) * bn / phases;
  const int lane = static_cast<int>(threadIdx.x);
  if (lane < issuers) {
    for (int i = 0; i < iters; ++i) {
      const int s = i % stages;
      const unsigned ph = static_cast<unsigned>(i / stages) & 1u;
      const unsigned f = smem_addr(&full[s]);
      if (lane == 0) {
        mbarrier_wait_parity(smem_addr(&empty[s]), ph ^ 1u);
        mbarrier_arrive_expect_tx(f, stage_bytes);
      }
      __syncwarp((1u << issuers) - 1u);
      const int k = (i % k_iters) * 64;
      const unsigned dst_a = base + s * stage_bytes;
      const unsigned dst_b = dst_a + bm * 128;
      for (int p = lane; p < phases; p += issuers) {
        phase_tma_load_2d(dst_a + p * a_box, &a.map[p], f, k + a.delta[p], a_q);
        phase_tma_load_2d(dst_b + p * b_box, &b.map[p], f, k + b.delta[p], b_q);
      }
    }
  } else if (threadIdx.x == 32) {
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
    g_phase_cycles[blockIdx.x] = clock64_now() - t0;
  }
}
