// Device half of scripts/probes/tile-forms.cu (kept apart so that NVRTC can compile-check it
// without the toolkit's headers: `python3 scripts/probes/nvrtc-check.py
// scripts/probes/tile-forms.cuh`, after `. scripts/nvrtc-env.sh`).
//
// Session 69's question: is a 192 x 192 tile, which cuBLASLt runs where it covers a problem in
// one wave (4096x2112x7168, 2432x1792; 6240x752 would be exactly 132 of them), as fast in its
// mainloop as deepgemm's 128 x 256? deepgemm's consumers split a tile by rows (warpgroup c its
// own 64 rows, one m64nBN wgmma a k-slice), which a 192-row tile cannot share between two
// warpgroups; split by columns instead, each warpgroup takes every row of the tile and half its
// columns: three m64n96 wgmmas a k-slice, 144 accumulators a thread (under the 168 registers of
// a 384-thread launch), and each reads the whole A tile and half of B from shared memory
// (~104 bytes a tensor-core cycle against 128 x 256's ~78: the question is whether that binds).
//
// The mainloop alone, as scripts/probes/mainloop.cu: one producer thread fills a ring of
// BM + BN rows a stage (64 k, 128-byte swizzle) by TMA from L2-resident K-major operands; two
// consumer warpgroups run their wgmmas on each stage and release it after the next stage's
// batch is issued (wgmma.wait_group 1). kNSplit false: consumer c takes rows
// [c BM / 2, (c + 1) BM / 2) (BM / 128 m64 blocks) and every column; true: every row (BM / 64
// blocks) and columns [c BN / 2, (c + 1) BN / 2). Modes: 0 loads and wgmma, 1 wgmma alone
// (the producer arrives without a transaction), 2 loads alone.
#pragma once

#include "ptx/mbarrier.cuh"
#include "ptx/regs.cuh"
#include "ptx/smem.cuh"
#include "ptx/special.cuh"
#include "ptx/tma.cuh"
#include "ptx/wgmma.cuh"
#include "sm90/descriptor.cuh"

// A tensor map as a kernel parameter: CUtensorMap's layout (128 opaque bytes, 64-byte
// aligned), declared here so that the device code needs no toolkit header.
struct alignas(64) CUtensorMapProbe {
  unsigned long long opaque[16];
};

constexpr int kProbeMaxStages = 16;
__device__ long long g_tile_cycles[1024];

template <int BM, int BN, bool kNSplit>
__global__ void __launch_bounds__(384, 1)
    tile_mainloop(const __grid_constant__ CUtensorMapProbe ta,
                  const __grid_constant__ CUtensorMapProbe tb, int stages, int iters,
                  int a_tiles, int b_tiles, int k_iters, int mode, float* out) {
  constexpr int kBlocks = kNSplit ? BM / 64 : BM / 128;
  constexpr int kN = kNSplit ? BN / 2 : BN;
  using Mma = Wgmma<kN, kWgmmaBf16, 0, 0>;
  constexpr int kAcc = Mma::kAccRegs;
  constexpr int kStageBytes = (BM + BN) * 128;
  static_assert(BM % (kNSplit ? 64 : 128) == 0 && (!kNSplit || BN % 16 == 0), "tile form");
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  __shared__ unsigned long long full[kProbeMaxStages];
  __shared__ unsigned long long empty[kProbeMaxStages];
  const unsigned raw = smem_addr(smem_raw);
  const unsigned base = raw + ((1024u - (raw & 1023u)) & 1023u);
  const int a_row = (static_cast<int>(blockIdx.x) % a_tiles) * BM;
  const int b_row = (static_cast<int>(blockIdx.x) / a_tiles % b_tiles) * BN;
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      mbarrier_init(smem_addr(&full[s]), 1);
      mbarrier_init(smem_addr(&empty[s]), 2 * 4);  // lane 0 of each consumer warp
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  const int wg = static_cast<int>(threadIdx.x) / 128;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  if (wg == 0) {
    setmaxnreg_dec<40>();
    if (threadIdx.x == 0) {
      for (int i = 0; i < iters; ++i) {
        const int s = i % stages;
        const unsigned ph = static_cast<unsigned>(i / stages) & 1u;
        mbarrier_wait_parity(smem_addr(&empty[s]), ph ^ 1u);
        const unsigned f = smem_addr(&full[s]);
        if (mode == 1) {
          mbarrier_arrive(f);
          continue;
        }
        mbarrier_arrive_expect_tx(f, kStageBytes);
        const int k = i % k_iters;
        const unsigned dst_a = base + s * kStageBytes;
        tma_load_3d(dst_a, &ta, f, 0, a_row, k);
        tma_load_3d(dst_a + BM * 128, &tb, f, 0, b_row, k);
      }
    }
    return;
  }
  setmaxnreg_inc<232>();
  const int c = wg - 1;
  float acc[kBlocks][kAcc];
#pragma unroll
  for (int b = 0; b < kBlocks; ++b) {
#pragma unroll
    for (int r = 0; r < kAcc; ++r) acc[b][r] = 0.f;
  }
  const unsigned a_off = kNSplit ? 0u : static_cast<unsigned>(c * (BM / 2) * 128);
  const unsigned b_off = BM * 128 + (kNSplit ? static_cast<unsigned>(c * (BN / 2) * 128) : 0u);
  long long t0 = 0;
  int previous = 0;
  bool first = true;
  for (int i = 0; i < iters; ++i) {
    const int s = i % stages;
    const unsigned ph = static_cast<unsigned>(i / stages) & 1u;
    mbarrier_wait_parity(smem_addr(&full[s]), ph);
    if (i == 0) t0 = clock64_now();
    if (mode == 2) {
      if (lane == 0) mbarrier_arrive(smem_addr(&empty[s]));
      continue;
    }
    const unsigned st = base + s * kStageBytes;
#pragma unroll
    for (int b = 0; b < kBlocks; ++b) {
#pragma unroll
      for (int r = 0; r < kAcc; ++r) wgmma_fence_operand(acc[b][r]);
    }
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < 4; ++kk) {
#pragma unroll
      for (int b = 0; b < kBlocks; ++b) {
        Mma::mma(acc[b], dg_sm90::desc_kmajor_sw128(st + a_off + b * 64 * 128 + kk * 32),
                 dg_sm90::desc_kmajor_sw128(st + b_off + kk * 32), 1);
      }
    }
    wgmma_commit_group();
#pragma unroll
    for (int b = 0; b < kBlocks; ++b) {
#pragma unroll
      for (int r = 0; r < kAcc; ++r) wgmma_fence_operand(acc[b][r]);
    }
    wgmma_wait_group<1>();
    if (!first && lane == 0) mbarrier_arrive(smem_addr(&empty[previous]));
    previous = s;
    first = false;
  }
  wgmma_wait_group<0>();
  if (mode != 2 && !first && lane == 0) mbarrier_arrive(smem_addr(&empty[previous]));
  float sum = 0.f;
#pragma unroll
  for (int b = 0; b < kBlocks; ++b) {
#pragma unroll
    for (int r = 0; r < kAcc; ++r) sum += acc[b][r];
  }
  if (threadIdx.x == 128) g_tile_cycles[blockIdx.x] = clock64_now() - t0;
  if (sum == 12345.f) out[blockIdx.x] = sum;
}

// The forms timed (explicit instantiations, so that NVRTC's check compiles each).
#define DG_TILE_FORM(BM, BN, NS)                                                              \
  template __global__ void tile_mainloop<BM, BN, NS>(                                         \
      const __grid_constant__ CUtensorMapProbe, const __grid_constant__ CUtensorMapProbe, int, \
      int, int, int, int, int, float*);
DG_TILE_FORM(128, 256, false)
DG_TILE_FORM(128, 192, false)
DG_TILE_FORM(256, 128, false)
DG_TILE_FORM(192, 192, true)
DG_TILE_FORM(192, 160, true)
DG_TILE_FORM(192, 128, true)
DG_TILE_FORM(256, 128, true)
DG_TILE_FORM(128, 256, true)
