// The portable GEMM: correct for every supported case, the reference every fast path is
// tested against. One block computes one BLOCK_M x BLOCK_N tile of D at a time and loops
// (grid-stride) over m tiles, n tiles and batches beyond the grid, so the host may cap the
// grid freely.
//
// Per tile: operand tiles go global -> registers -> shared memory; the next k tile's global
// loads are issued before the current tile's math (a register prefetch), so their latency
// overlaps the math. The math itself is a `Mainloop` policy (FFMA, mma.sync f16/bf16, mma.sync
// tf32; gemm/mainloop_*.cuh) that owns the shared-memory layout, the accumulators and their
// (row, col) mapping. The epilogue goes straight from accumulators to global memory.
//
// Nothing about the operands is assumed beyond element alignment: any stride (1, an odd
// leading dimension, 0), any m, n >= 1, k >= 0. Every global access is predicated.
#pragma once

#include "common/math.cuh"
#include "common/params.cuh"
#include "common/types.cuh"

// One operand tile (ROWS rows of m or n, BLOCK_K columns of k) held in registers, spread
// over the block. Each thread owns the same kPerThread tile positions for every k tile.
//
// Consecutive threads take consecutive positions along the dimension whose global stride is
// 1 (rows_fast: the m/n dimension, else k), so that a warp's loads coalesce; when neither
// stride is 1 no order coalesces and k-fast is as good as any. Because THREADS is a multiple
// of both ROWS and BLOCK_K, a thread's positions form one arithmetic progression:
// (row, kk) = (row_first + slot * row_step, kk_first + slot * kk_step). Addresses are then one
// 64-bit offset plus slot * (one 64-bit stride): computing each slot's address from scratch
// made ptxas keep a 64-bit address per slot live across the k loop (~250 registers).
template <typename T, int ROWS, int BLOCK_K, int THREADS>
struct TileFetch {
  static_assert((ROWS * BLOCK_K) % THREADS == 0, "tile must split evenly over the threads");
  static_assert(THREADS % ROWS == 0 && THREADS % BLOCK_K == 0,
                "THREADS must be a multiple of the tile's rows and of BLOCK_K");
  static constexpr int kPerThread = ROWS * BLOCK_K / THREADS;

  T regs[kPerThread];
  int row_first, kk_first, row_step, kk_step;

  __device__ __forceinline__ explicit TileFetch(bool rows_fast) {
    const int tid = static_cast<int>(threadIdx.x);
    if (rows_fast) {
      row_first = tid % ROWS;
      kk_first = tid / ROWS;
      row_step = 0;
      kk_step = THREADS / ROWS;
    } else {
      kk_first = tid % BLOCK_K;
      row_first = tid / BLOCK_K;
      kk_step = 0;
      row_step = THREADS / BLOCK_K;
    }
  }

  // Element (row, kk) of the tile is src[offset + (row0 + row) * row_stride + (k0 + kk) *
  // k_stride]; positions outside rows x k read as zero, which adds nothing to the products.
  __device__ __forceinline__ void load(const T* src, long long offset, long long row_stride,
                                       long long k_stride, long long row0, long long rows,
                                       long long k0, long long k) {
    // Remaining extent from this thread's first position; compared per slot in 32 bits
    // (clamped: only whether it exceeds the tile matters).
    const long long rows_left_ll = rows - row0 - row_first;
    const long long k_left_ll = k - k0 - kk_first;
    const int rows_left = rows_left_ll > ROWS ? ROWS : static_cast<int>(rows_left_ll);
    const int k_left = k_left_ll > BLOCK_K ? BLOCK_K : static_cast<int>(k_left_ll);
    const T* first = src + offset + (row0 + row_first) * row_stride + (k0 + kk_first) * k_stride;
    const long long slot_stride = row_step * row_stride + kk_step * k_stride;
#pragma unroll
    for (int slot = 0; slot < kPerThread; ++slot) {
      const bool inside = slot * row_step < rows_left && slot * kk_step < k_left;
      regs[slot] = inside ? first[slot * slot_stride] : T{};
    }
  }

  // Hands every held element to store(row, kk, value) (the mainloop's shared-memory write).
  template <class Store>
  __device__ __forceinline__ void store(Store&& store) const {
#pragma unroll
    for (int slot = 0; slot < kPerThread; ++slot) {
      store(row_first + slot * row_step, kk_first + slot * kk_step, regs[slot]);
    }
  }
};

// kPtrArrays (cublasGemmBatchedEx): p.a, p.b, p.c and p.d are device arrays of p.batch
// matrix pointers, batch strides 0; matrix `batch` of each is read from its array once per
// batch a block visits (C's only where beta != 0: with beta = 0 it need not be valid).
template <class Mainloop, typename TCD, bool kPtrArrays = false>
__device__ __forceinline__ void portable_gemm(const GemmParams& p) {
  using TAB = typename Mainloop::TAB;
  constexpr int BLOCK_M = Mainloop::BLOCK_M;
  constexpr int BLOCK_N = Mainloop::BLOCK_N;
  constexpr int BLOCK_K = Mainloop::BLOCK_K;
  constexpr int THREADS = Mainloop::THREADS;
  using SharedStorage = typename Mainloop::SharedStorage;
  // Static shared memory only: above 48 KiB a kernel needs the dynamic opt-in.
  static_assert(sizeof(SharedStorage) <= 48 * 1024, "portable kernels use static smem <= 48 KiB");

  __shared__ SharedStorage smem;

  const float alpha = p.alpha_ptr != nullptr ? *p.alpha_ptr : p.alpha;
  const float beta = p.beta_ptr != nullptr ? *p.beta_ptr : p.beta;
  // k == 0: no product term (A and B are not read). alpha == 0 still multiplies, as the
  // Hopper kernels' epilogues do (a session-52 review found the paths disagreeing: here an inf
  // in A gave D = beta * C, on the Hopper path NaN, depending on the plan); reference BLAS
  // skips the product there instead, and cuBLASLt's choice is unmeasured.
  const bool has_product = p.k > 0;
  const long long k_iters = has_product ? (p.k + BLOCK_K - 1) / BLOCK_K : 0;
  const long long m_tiles = (p.m + BLOCK_M - 1) / BLOCK_M;
  const long long n_tiles = (p.n + BLOCK_N - 1) / BLOCK_N;
  const bool a_rows_fast = p.a_ms == 1;
  const bool b_rows_fast = p.b_ns == 1;
  const bool has_bias = (p.flags & GEMM_FLAG_BIAS) != 0;
  const bool bias_f32 = (p.flags & GEMM_FLAG_BIAS_F32) != 0;

  // C may alias D; each element of C is read only by the thread that then writes the same
  // element of D, so no ordering between threads is needed.

  // The loop bounds depend only on blockIdx and p, so every __syncthreads below is reached
  // by the whole block.
  for (long long batch = blockIdx.z; batch < p.batch; batch += gridDim.z) {
    // This batch's matrices: from the pointer arrays, or the bases plus the batch strides
    // (offsets added where used, as before pointer arrays: the same code for that form).
    const TAB* a;
    const TAB* b;
    const TCD* c;
    TCD* d;
    long long a_off, b_off, c_off, d_off;
    if constexpr (kPtrArrays) {
      // With k = 0 the arrays of A and B may be NULL (the host checks them only for a
      // product, as GemmEx checks A and B): not read then.
      a = has_product ? static_cast<const TAB* const*>(p.a)[batch] : nullptr;
      b = has_product ? static_cast<const TAB* const*>(p.b)[batch] : nullptr;
      c = beta != 0.f ? static_cast<const TCD* const*>(p.c)[batch] : nullptr;
      d = static_cast<TCD* const*>(p.d)[batch];
      a_off = b_off = c_off = d_off = 0;
    } else {
      a = static_cast<const TAB*>(p.a);
      b = static_cast<const TAB*>(p.b);
      c = static_cast<const TCD*>(p.c);
      d = static_cast<TCD*>(p.d);
      a_off = batch * p.a_bs;
      b_off = batch * p.b_bs;
      c_off = batch * p.c_bs;
      d_off = batch * p.d_bs;
    }
    for (long long n_tile = blockIdx.y; n_tile < n_tiles; n_tile += gridDim.y) {
      for (long long m_tile = blockIdx.x; m_tile < m_tiles; m_tile += gridDim.x) {
        const long long m0 = m_tile * BLOCK_M;
        const long long n0 = n_tile * BLOCK_N;

        Mainloop mainloop;
        mainloop.clear();
        TileFetch<TAB, BLOCK_M, BLOCK_K, THREADS> fetch_a(a_rows_fast);
        TileFetch<TAB, BLOCK_N, BLOCK_K, THREADS> fetch_b(b_rows_fast);
        if (k_iters > 0) {
          fetch_a.load(a, a_off, p.a_ms, p.a_ks, m0, p.m, 0, p.k);
          fetch_b.load(b, b_off, p.b_ns, p.b_ks, n0, p.n, 0, p.k);
        }
        for (long long k_iter = 0; k_iter < k_iters; ++k_iter) {
          fetch_a.store([&](int row, int kk, TAB v) { Mainloop::store_a(smem, row, kk, v); });
          fetch_b.store([&](int row, int kk, TAB v) { Mainloop::store_b(smem, row, kk, v); });
          __syncthreads();
          if (k_iter + 1 < k_iters) {
            const long long k0 = (k_iter + 1) * BLOCK_K;
            fetch_a.load(a, a_off, p.a_ms, p.a_ks, m0, p.m, k0, p.k);
            fetch_b.load(b, b_off, p.b_ns, p.b_ks, n0, p.n, k0, p.k);
          }
          mainloop.compute(smem);
          // The next iteration (or tile) overwrites the shared tiles.
          __syncthreads();
        }

        mainloop.for_each_acc([&](int row, int col, float acc) {
          const long long i = m0 + row;
          const long long j = n0 + col;
          if (i >= p.m || j >= p.n) return;
          float x = has_product ? alpha * acc : 0.f;
          // beta == 0 must not read C: C may be NULL or hold NaN (BLAS semantics).
          if (beta != 0.f) x = fmaf(beta, to_float(c[c_off + i * p.c_ms + j * p.c_ns]), x);
          if (has_bias) {
            const long long at = batch * p.bias_bs + i;
            x += bias_f32 ? static_cast<const float*>(p.bias)[at]
                          : to_float(static_cast<const TCD*>(p.bias)[at]);
          }
          x = apply_activation(x, p.activation);
          d[d_off + i * p.d_ms + j * p.d_ns] = from_float<TCD>(x);
        });
      }
    }
  }
}
