// The skinny GEMM (sm_80+): D = act(alpha * A B + beta * C + bias) where n <= COLS (8 or 16)
// and m is large: decode's GEMMs, whose time is reading the weights (A here; the planner
// computes the transposed problem when the small side is m). Both operands are K-major
// (a_ks == b_ks == 1), 16-byte aligned with leading dimensions and batch strides multiples of 8
// elements, k a multiple of 8 (the host checks, `plan::skinny`).
//
// A CTA owns ROWS rows of D (all its <= COLS columns); its WARPS warps split k, chunk by chunk
// of 32 (warp w takes chunks w, w + WARPS, ...: the CTA's warps read neighbouring k at once).
// Each thread copies its own 16-byte pieces (8 consecutive k of A's rows g and g + 8 of each
// 16-row block, and of B's column g) into its own slots of a STAGES-deep ring with cp.async and
// reads back only what it copied, so a thread's wait_group is the only synchronisation the
// mainloop needs: no barrier, no mbarrier, and the ring (not registers) holds the bytes in
// flight. The reads feed mma.sync m16n8k16 with k permuted inside each chunk: a thread's 8
// consecutive k of a row stand in for the fragment's k 2t, 2t + 1, 2t + 8, 2t + 9 of two mma
// steps; A and B are permuted alike, so the sum over k is the same. At the end the warps' fp32
// partial tiles meet in shared memory and are added in warp order (deterministic), then the
// epilogue (alpha, beta * C with C possibly aliasing D, bias along m or along n, activation)
// writes D element by element.
#pragma once

#include "common/math.cuh"
#include "common/params.cuh"
#include "common/types.cuh"
#include "ptx/cp_async.cuh"
#include "ptx/mma.cuh"
#include "ptx/smem.cuh"

// The bias is indexed by D's column j instead of its row i (a problem computed transposed).
#define SKINNY_FLAG_BIAS_COL 4

// What an L2 miss of A's pieces fetches from DRAM: 256 (bytes), 128, or 0 (only the sectors
// asked for). Each warp asks for 64 bytes of a row a copy, so without it DRAM serves 64-byte
// requests (measurement define: DEEPGEMM_NVRTC_DEFINES=SKINNY_L2_PREFETCH=...).
#ifndef SKINNY_L2_PREFETCH
#define SKINNY_L2_PREFETCH 256
#endif

namespace dg_skinny {

// k of one chunk: four threads of a fragment row x 8 elements.
constexpr int kChunk = 32;

// One chunk's mmas (two k16 steps) from a thread's 16-byte pieces: w[v] of A's rows g, g + 8 of
// row block v / 2, x[nt] of B's column g of block nt; words 2 * step and 2 * step + 1 of each
// are the fragment's k 2t, 2t + 1 and 2t + 8, 2t + 9 (the chunk's k permuted, A and B alike).
template <typename TAB, int MT, int NT>
__device__ __forceinline__ void chunk_mmas(float (&acc)[MT][NT][4], const unsigned (&w)[2 * MT][4],
                                           const unsigned (&x)[NT][4]) {
#pragma unroll
  for (int step = 0; step < 2; ++step) {
#pragma unroll
    for (int mt = 0; mt < MT; ++mt) {
      const unsigned af[4] = {w[2 * mt][2 * step], w[2 * mt + 1][2 * step], w[2 * mt][2 * step + 1],
                              w[2 * mt + 1][2 * step + 1]};
#pragma unroll
      for (int nt = 0; nt < NT; ++nt) {
        const unsigned bf[2] = {x[nt][2 * step], x[nt][2 * step + 1]};
        Mma16816<TAB>::run(acc[mt][nt], af, bf);
      }
    }
  }
}

// A warp's partial tile into the reduction buffer: [warp][col][row] floats.
template <int ROWS, int COLS, int MT, int NT>
__device__ __forceinline__ void store_partials(float* part, int warp, int g, int t,
                                               const float (&acc)[MT][NT][4]) {
#pragma unroll
  for (int mt = 0; mt < MT; ++mt)
#pragma unroll
    for (int nt = 0; nt < NT; ++nt)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int row = mt * 16 + g + (e / 2) * 8;
        const int col = nt * 8 + 2 * t + (e % 2);
        part[(warp * COLS + col) * ROWS + row] = acc[mt][nt][e];
      }
}

// The warps' partials added in warp order (deterministic), then the epilogue (alpha, beta * C
// with C possibly aliasing D, bias along m or n, activation), one element of D a thread and
// step (`tid` of `threads`), consecutive threads along D's contiguous side. Rows past m and
// columns past n (never loaded, or loaded as zeros) are not stored.
template <typename TCD, int ROWS, int COLS, int WARPS>
__device__ __forceinline__ void finish_rows(const GemmParams& p, const float* part, long long batch,
                                            long long i0, float alpha, float beta, bool has_product,
                                            int tid, int threads) {
  const bool has_bias = (p.flags & GEMM_FLAG_BIAS) != 0;
  const bool bias_f32 = (p.flags & GEMM_FLAG_BIAS_F32) != 0;
  const bool bias_col = (p.flags & SKINNY_FLAG_BIAS_COL) != 0;
  const TCD* c = static_cast<const TCD*>(p.c);
  TCD* d = static_cast<TCD*>(p.d);
  const bool rows_fast = p.d_ms == 1 || p.d_ns != 1;
  for (int idx = tid; idx < ROWS * COLS; idx += threads) {
    const int row = rows_fast ? idx % ROWS : idx / COLS;
    const int col = rows_fast ? idx / ROWS : idx % COLS;
    const long long i = i0 + row;
    if (i >= p.m || col >= p.n) continue;
    float sum = 0.f;
#pragma unroll
    for (int w = 0; w < WARPS; ++w) sum += part[(w * COLS + col) * ROWS + row];
    float v = has_product ? alpha * sum : 0.f;
    // beta == 0 must not read C (C may be NULL or hold NaN).
    if (beta != 0.f) v = fmaf(beta, to_float(c[batch * p.c_bs + i * p.c_ms + col * p.c_ns]), v);
    if (has_bias) {
      const long long at = batch * p.bias_bs + (bias_col ? col : i);
      v += bias_f32 ? static_cast<const float*>(p.bias)[at] : to_float(static_cast<const TCD*>(p.bias)[at]);
    }
    v = apply_activation(v, p.activation);
    d[batch * p.d_bs + i * p.d_ms + col * p.d_ns] = from_float<TCD>(v);
  }
}

// One 16-byte piece of A (the streamed operand) into shared memory.
__device__ __forceinline__ void copy_a(unsigned dst, const void* src, bool full) {
#if SKINNY_L2_PREFETCH == 256
  cp_async_16_cg_l2_256(dst, src, full);
#elif SKINNY_L2_PREFETCH == 128
  cp_async_16_cg_l2_128(dst, src, full);
#else
  cp_async_16_cg(dst, src, full);
#endif
}

template <int ROWS, int COLS, int WARPS, int STAGES>
struct Shape {
  static constexpr int kThreads = WARPS * 32;
  static constexpr int kMt = ROWS / 16;  // 16-row mma blocks
  static constexpr int kNt = COLS / 8;   // 8-column mma blocks
  // A thread's 16-byte pieces a chunk: rows g and g + 8 of each row block, column g of B.
  static constexpr int kVecs = 2 * kMt + kNt;
  static constexpr int kStageBytes = kThreads * kVecs * 16;
  static constexpr int kRingBytes = STAGES * kStageBytes;
  // The warps' partial tiles, added at the end, reuse the ring.
  static constexpr int kReduceBytes = WARPS * ROWS * COLS * 4;
  static constexpr int kSmemBytes = kRingBytes > kReduceBytes ? kRingBytes : kReduceBytes;
  static_assert(ROWS % 16 == 0 && COLS % 8 == 0 && STAGES >= 2, "skinny shape");
};

template <typename TAB, typename TCD, int ROWS, int COLS, int WARPS, int STAGES>
__device__ __forceinline__ void skinny_gemm(const GemmParams& p, unsigned char* smem) {
  using S = Shape<ROWS, COLS, WARPS, STAGES>;
  constexpr int MT = S::kMt;
  constexpr int NT = S::kNt;
  constexpr int VECS = S::kVecs;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int g = lane / 4;
  const int t = lane % 4;

  const float alpha = p.alpha_ptr != nullptr ? *p.alpha_ptr : p.alpha;
  const float beta = p.beta_ptr != nullptr ? *p.beta_ptr : p.beta;
  // k == 0: no product term, A and B are not read (alpha == 0 multiplies, as on every path:
  // gemm/portable.cuh).
  const bool has_product = p.k > 0;
  const long long chunks = has_product ? (p.k + kChunk - 1) / kChunk : 0;
  const long long mine = chunks > warp ? (chunks - warp + WARPS - 1) / WARPS : 0;
  const long long row_blocks = (p.m + ROWS - 1) / ROWS;
  const TAB* a = static_cast<const TAB*>(p.a);
  const TAB* b = static_cast<const TAB*>(p.b);
  // This thread's slot in stage 0; stage s is S::kStageBytes further.
  const unsigned ring = smem_addr(smem) + static_cast<unsigned>(threadIdx.x) * VECS * 16;

  for (long long work = blockIdx.x; work < row_blocks * p.batch; work += gridDim.x) {
    const long long batch = work / row_blocks;
    const long long i0 = (work % row_blocks) * ROWS;
    const TAB* a_rows = a + batch * p.a_bs;
    const TAB* b_cols = b + batch * p.b_bs;

    // Chunk `s` of this warp (k from (warp + s * WARPS) * 32) into stage s % STAGES.
    auto issue = [&](long long s) {
      const long long kk = (warp + s * WARPS) * kChunk + 8 * t;
      const bool k_in = kk < p.k;
      const unsigned dst = ring + static_cast<unsigned>(s % STAGES) * S::kStageBytes;
#pragma unroll
      for (int v = 0; v < 2 * MT; ++v) {
        const long long row = i0 + (v / 2) * 16 + g + (v % 2) * 8;
        const bool in = k_in && row < p.m;
        copy_a(dst + v * 16, in ? a_rows + row * p.a_ms + kk : a, in);
      }
#pragma unroll
      for (int nt = 0; nt < NT; ++nt) {
        const long long col = nt * 8 + g;
        const bool in = k_in && col < p.n;
        // B is small and read by every CTA: keep it in L1 as well.
        cp_async_16_ca(dst + (2 * MT + nt) * 16, in ? b_cols + col * p.b_ns + kk : b, in);
      }
    };

    float acc[MT][NT][4];
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
      for (int nt = 0; nt < NT; ++nt)
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[mt][nt][e] = 0.f;

#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
      if (s < mine) issue(s);
      cp_async_commit();
    }
    for (long long s = 0; s < mine; ++s) {
      // Groups committed so far: STAGES - 1 + s; chunk s's is complete once at most
      // STAGES - 2 are pending.
      cp_async_wait<STAGES - 2>();
      const unsigned src = ring + static_cast<unsigned>(s % STAGES) * S::kStageBytes;
      unsigned w[2 * MT][4];
      unsigned x[NT][4];
#pragma unroll
      for (int v = 0; v < 2 * MT; ++v) ld_shared_v4(src + v * 16, w[v]);
#pragma unroll
      for (int nt = 0; nt < NT; ++nt) ld_shared_v4(src + (2 * MT + nt) * 16, x[nt]);
      chunk_mmas<TAB>(acc, w, x);
      // The stage read above was consumed by the mmas (in-order issue): refill the stage of
      // the previous iteration.
      if (s + STAGES - 1 < mine) issue(s + STAGES - 1);
      cp_async_commit();
    }
    cp_async_wait<0>();
    __syncthreads();  // every warp done with the ring before it holds the partials

    float* part = reinterpret_cast<float*>(smem);
    store_partials<ROWS, COLS>(part, warp, g, t, acc);
    __syncthreads();
    finish_rows<TCD, ROWS, COLS, WARPS>(p, part, batch, i0, alpha, beta, has_product,
                                        static_cast<int>(threadIdx.x), S::kThreads);
    // The partials are read before the next work item's copies overwrite the ring.
    __syncthreads();
  }
}

}  // namespace dg_skinny
