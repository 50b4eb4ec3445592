// FFMA mainloop: exact fp32 products on CUDA cores. Used for COMPUTE_32F (where tensor-core
// rounding is not allowed) and on sm_75, which has no fp32-accumulating m16n8k16 mma.
#pragma once

#include "common/types.cuh"

template <typename TAB_, int BM, int BN, int BK, int NUM_THREADS>
struct FfmaMainloop {
  using TAB = TAB_;
  static constexpr int BLOCK_M = BM;
  static constexpr int BLOCK_N = BN;
  static constexpr int BLOCK_K = BK;
  static constexpr int THREADS = NUM_THREADS;

  // Threads form a kThreadsM x kThreadsN grid; each owns a TM x TN micro-tile whose rows are
  // kThreadsM apart and columns kThreadsN apart. Strided (not contiguous) micro-tiles make a
  // warp's shared-memory reads for one kk consecutive words (conflict-free) or broadcasts.
  static constexpr int kThreadsM = 8;
  static constexpr int kThreadsN = THREADS / kThreadsM;
  static constexpr int TM = BLOCK_M / kThreadsM;
  static constexpr int TN = BLOCK_N / kThreadsN;
  static_assert(THREADS % kThreadsM == 0, "threads must form a kThreadsM-row grid");
  static_assert(TM * kThreadsM == BLOCK_M && TN * kThreadsN == BLOCK_N,
                "block tile must split evenly into micro-tiles");

  // k-major so that the inner loop reads rows of m (n). Inputs are widened to fp32 once,
  // here, rather than once per use. The +1 pad: when the operand is k-contiguous in global
  // memory, the tile fill writes along k, and unpadded rows of 64 words would put those
  // writes in one bank.
  struct SharedStorage {
    float a[BLOCK_K][BLOCK_M + 1];
    float b[BLOCK_K][BLOCK_N + 1];
  };

  float acc[TM][TN];

  __device__ __forceinline__ void clear() {
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
      for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;
  }

  __device__ __forceinline__ static void store_a(SharedStorage& s, int row, int kk, TAB v) {
    s.a[kk][row] = to_float(v);
  }
  __device__ __forceinline__ static void store_b(SharedStorage& s, int row, int kk, TAB v) {
    s.b[kk][row] = to_float(v);
  }

  __device__ __forceinline__ void compute(const SharedStorage& s) {
    const int tm = threadIdx.x % kThreadsM;
    const int tn = threadIdx.x / kThreadsM;
#pragma unroll
    for (int kk = 0; kk < BLOCK_K; ++kk) {
      float av[TM], bv[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i) av[i] = s.a[kk][tm + i * kThreadsM];
#pragma unroll
      for (int j = 0; j < TN; ++j) bv[j] = s.b[kk][tn + j * kThreadsN];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
    }
  }

  // f(row, col, value) for every accumulator, (row, col) relative to the block tile.
  template <class F>
  __device__ __forceinline__ void for_each_acc(F&& f) const {
    const int tm = threadIdx.x % kThreadsM;
    const int tn = threadIdx.x / kThreadsM;
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
      for (int j = 0; j < TN; ++j) f(tm + i * kThreadsM, tn + j * kThreadsN, acc[i][j]);
  }
};
