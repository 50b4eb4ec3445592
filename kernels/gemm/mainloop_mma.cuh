// Tensor-core mainloops (sm_80+): mma.sync with fp32 accumulators.
//   MmaMainloop  - f16 / bf16 operands, m16n8k16.
//   Tf32Mainloop - fp32 operands rounded to tf32, m16n8k8 (COMPUTE_32F_FAST_TF32).
// Fragment layouts: PTX ISA "Matrix Fragments for mma.m16n8k16 with floating point type" and
// "Matrix Fragments for mma.m16n8k8" (see ptx/mma.cuh). Both use the same warp tiling and the
// same accumulator layout, so the epilogue mapping is shared.
#pragma once

#include "common/types.cuh"
#include "ptx/mma.cuh"

// Warps form a 2 x (warps / 2) grid over the block tile; each warp owns a WARP_M x WARP_N
// sub-tile made of MMA_M_TILES x MMA_N_TILES mma tiles of 16 x 8.
template <int BM, int BN, int NUM_THREADS>
struct MmaWarpTiling {
  static constexpr int kWarps = NUM_THREADS / 32;
  static constexpr int kWarpsM = 2;
  static constexpr int kWarpsN = kWarps / kWarpsM;
  static constexpr int WARP_M = BM / kWarpsM;
  static constexpr int WARP_N = BN / kWarpsN;
  static constexpr int MMA_M_TILES = WARP_M / 16;
  static constexpr int MMA_N_TILES = WARP_N / 8;
  static_assert(NUM_THREADS % 64 == 0, "need an even number of whole warps");
  static_assert(WARP_M * kWarpsM == BM && MMA_M_TILES * 16 == WARP_M, "BLOCK_M must split into 16-row mma tiles");
  static_assert(WARP_N * kWarpsN == BN && MMA_N_TILES * 8 == WARP_N, "BLOCK_N must split into 8-col mma tiles");

  // First row / column of this warp's sub-tile.
  __device__ __forceinline__ static int warp_row0() {
    return (static_cast<int>(threadIdx.x) / 32 % kWarpsM) * WARP_M;
  }
  __device__ __forceinline__ static int warp_col0() {
    return (static_cast<int>(threadIdx.x) / 32 / kWarpsM) * WARP_N;
  }

  // The f32 accumulator fragment (same for m16n8k16 and m16n8k8): c0, c1 at row g, cols
  // 2t, 2t+1; c2, c3 at row g+8; g = lane / 4, t = lane % 4.
  template <class F>
  __device__ __forceinline__ static void for_each_acc(const float (&acc)[MMA_M_TILES][MMA_N_TILES][4],
                                                      F&& f) {
    const int lane = static_cast<int>(threadIdx.x) % 32;
    const int g = lane / 4;
    const int t = lane % 4;
#pragma unroll
    for (int mi = 0; mi < MMA_M_TILES; ++mi)
#pragma unroll
      for (int ni = 0; ni < MMA_N_TILES; ++ni)
#pragma unroll
        for (int c = 0; c < 4; ++c) {
          const int row = warp_row0() + mi * 16 + g + (c / 2) * 8;
          const int col = warp_col0() + ni * 8 + 2 * t + (c % 2);
          f(row, col, acc[mi][ni][c]);
        }
  }
};

// Reads two adjacent 16-bit elements of a shared tile as one .b32 fragment register (the
// lower-indexed element lands in the low half, as the fragment layout requires).
template <typename T>
__device__ __forceinline__ unsigned pair_b32(const T* p) {
  return *reinterpret_cast<const unsigned*>(p);
}

template <typename TAB_, int BM, int BN, int BK, int NUM_THREADS>
struct MmaMainloop {
  using TAB = TAB_;
  static constexpr int BLOCK_M = BM;
  static constexpr int BLOCK_N = BN;
  static constexpr int BLOCK_K = BK;
  static constexpr int THREADS = NUM_THREADS;
  using Tiling = MmaWarpTiling<BM, BN, NUM_THREADS>;
  static_assert(BLOCK_K % 16 == 0, "BLOCK_K must be a multiple of the mma k (16)");

  // Both tiles are k-contiguous ([row][k]): every fragment register is two k-adjacent
  // elements of one row (A) or one column of B, i.e. one aligned 32-bit shared load.
  // Pad of 8 elements: a row is then (BLOCK_K + 8) / 2 = 20 words for BLOCK_K = 32, and the
  // 8 rows x 4 words a warp reads per register land in 32 distinct banks.
  static constexpr int kPad = 8;
  static_assert((BLOCK_K + kPad) % 2 == 0, "rows must keep 32-bit alignment");
  struct alignas(16) SharedStorage {
    TAB a[BLOCK_M][BLOCK_K + kPad];
    TAB b[BLOCK_N][BLOCK_K + kPad];
  };

  float acc[Tiling::MMA_M_TILES][Tiling::MMA_N_TILES][4];

  __device__ __forceinline__ void clear() {
#pragma unroll
    for (int mi = 0; mi < Tiling::MMA_M_TILES; ++mi)
#pragma unroll
      for (int ni = 0; ni < Tiling::MMA_N_TILES; ++ni)
#pragma unroll
        for (int c = 0; c < 4; ++c) acc[mi][ni][c] = 0.f;
  }

  __device__ __forceinline__ static void store_a(SharedStorage& s, int row, int kk, TAB v) { s.a[row][kk] = v; }
  __device__ __forceinline__ static void store_b(SharedStorage& s, int row, int kk, TAB v) { s.b[row][kk] = v; }

  __device__ __forceinline__ void compute(const SharedStorage& s) {
    const int lane = static_cast<int>(threadIdx.x) % 32;
    const int g = lane / 4;
    const int t = lane % 4;
    const int row0 = Tiling::warp_row0();
    const int col0 = Tiling::warp_col0();
#pragma unroll
    for (int k16 = 0; k16 < BLOCK_K; k16 += 16) {
      const int kc = k16 + 2 * t;
      unsigned af[Tiling::MMA_M_TILES][4];
      unsigned bf[Tiling::MMA_N_TILES][2];
#pragma unroll
      for (int mi = 0; mi < Tiling::MMA_M_TILES; ++mi) {
        const int r = row0 + mi * 16 + g;
        af[mi][0] = pair_b32(&s.a[r][kc]);          // a0, a1: row g,   k 2t..2t+1
        af[mi][1] = pair_b32(&s.a[r + 8][kc]);      // a2, a3: row g+8, k 2t..2t+1
        af[mi][2] = pair_b32(&s.a[r][kc + 8]);      // a4, a5: row g,   k 2t+8..2t+9
        af[mi][3] = pair_b32(&s.a[r + 8][kc + 8]);  // a6, a7: row g+8, k 2t+8..2t+9
      }
#pragma unroll
      for (int ni = 0; ni < Tiling::MMA_N_TILES; ++ni) {
        const int n = col0 + ni * 8 + g;
        bf[ni][0] = pair_b32(&s.b[n][kc]);      // b0, b1: k 2t..2t+1,   col g
        bf[ni][1] = pair_b32(&s.b[n][kc + 8]);  // b2, b3: k 2t+8..2t+9, col g
      }
#pragma unroll
      for (int mi = 0; mi < Tiling::MMA_M_TILES; ++mi)
#pragma unroll
        for (int ni = 0; ni < Tiling::MMA_N_TILES; ++ni) Mma16816<TAB>::run(acc[mi][ni], af[mi], bf[ni]);
    }
  }

  template <class F>
  __device__ __forceinline__ void for_each_acc(F&& f) const {
    Tiling::for_each_acc(acc, f);
  }
};

template <typename TAB_, int BM, int BN, int BK, int NUM_THREADS>
struct Tf32Mainloop {
  using TAB = TAB_;
  static constexpr int BLOCK_M = BM;
  static constexpr int BLOCK_N = BN;
  static constexpr int BLOCK_K = BK;
  static constexpr int THREADS = NUM_THREADS;
  using Tiling = MmaWarpTiling<BM, BN, NUM_THREADS>;
  static_assert(BLOCK_K % 8 == 0, "BLOCK_K must be a multiple of the mma k (8)");

  // k-contiguous like MmaMainloop, holding tf32 bit patterns: the rounding happens once per
  // element on the way into shared memory, not once per fragment use. Pad of 4 words: rows
  // of 36 words put a warp's 8 rows x 4 columns per register in 32 distinct banks.
  static constexpr int kPad = 4;
  struct alignas(16) SharedStorage {
    unsigned a[BLOCK_M][BLOCK_K + kPad];
    unsigned b[BLOCK_N][BLOCK_K + kPad];
  };

  float acc[Tiling::MMA_M_TILES][Tiling::MMA_N_TILES][4];

  __device__ __forceinline__ void clear() {
#pragma unroll
    for (int mi = 0; mi < Tiling::MMA_M_TILES; ++mi)
#pragma unroll
      for (int ni = 0; ni < Tiling::MMA_N_TILES; ++ni)
#pragma unroll
        for (int c = 0; c < 4; ++c) acc[mi][ni][c] = 0.f;
  }

  __device__ __forceinline__ static void store_a(SharedStorage& s, int row, int kk, TAB v) {
    s.a[row][kk] = cvt_rna_tf32_f32(to_float(v));
  }
  __device__ __forceinline__ static void store_b(SharedStorage& s, int row, int kk, TAB v) {
    s.b[row][kk] = cvt_rna_tf32_f32(to_float(v));
  }

  __device__ __forceinline__ void compute(const SharedStorage& s) {
    const int lane = static_cast<int>(threadIdx.x) % 32;
    const int g = lane / 4;
    const int t = lane % 4;
    const int row0 = Tiling::warp_row0();
    const int col0 = Tiling::warp_col0();
#pragma unroll
    for (int k8 = 0; k8 < BLOCK_K; k8 += 8) {
      const int kc = k8 + t;
      unsigned af[Tiling::MMA_M_TILES][4];
      unsigned bf[Tiling::MMA_N_TILES][2];
#pragma unroll
      for (int mi = 0; mi < Tiling::MMA_M_TILES; ++mi) {
        const int r = row0 + mi * 16 + g;
        af[mi][0] = s.a[r][kc];          // a0: row g,   k t
        af[mi][1] = s.a[r + 8][kc];      // a1: row g+8, k t
        af[mi][2] = s.a[r][kc + 4];      // a2: row g,   k t+4
        af[mi][3] = s.a[r + 8][kc + 4];  // a3: row g+8, k t+4
      }
#pragma unroll
      for (int ni = 0; ni < Tiling::MMA_N_TILES; ++ni) {
        const int n = col0 + ni * 8 + g;
        bf[ni][0] = s.b[n][kc];      // b0: k t,   col g
        bf[ni][1] = s.b[n][kc + 4];  // b1: k t+4, col g
      }
#pragma unroll
      for (int mi = 0; mi < Tiling::MMA_M_TILES; ++mi)
#pragma unroll
        for (int ni = 0; ni < Tiling::MMA_N_TILES; ++ni) mma_m16n8k8_tf32(acc[mi][ni], af[mi], bf[ni]);
    }
  }

  template <class F>
  __device__ __forceinline__ void for_each_acc(F&& f) const {
    Tiling::for_each_acc(acc, f);
  }
};
