// The skinny GEMM's Hopper form (sm_90): the operands' rows come into shared memory by bulk
// copies (the TMA engine, one copy per row and stage) instead of each thread's 16-byte
// cp.async pieces, whose per-SM request tracking held `skinny.cuh` near 2 TB/s (session 42).
//
// Same contract as skinny_gemm (n <= COLS, both operands K-major, 16-byte lines, k a multiple
// of 8), same k permutation inside each 32-k chunk and the same warp-ordered reduction. A CTA
// has WARPS consumer warps and one producer warp; a stage holds kStageK = WARPS * CHUNKS * 32 of k for
// the CTA's ROWS rows of A and n columns of B (each a 16-byte padded line), consumer warp w
// computes chunks w * CHUNKS .. of every stage. The grid is persistent: a CTA walks work items (a block of
// ROWS rows of one batch) and the producer runs ahead into the next item's stages while the
// consumers finish the current one. full[s] completes when the stage's bytes landed (the
// producer's expect_tx), empty[s] when every consumer warp has read it.
#pragma once

#include "common/math.cuh"
#include "common/params.cuh"
#include "common/types.cuh"
#include "ptx/barrier.cuh"
#include "ptx/bulk.cuh"
#include "ptx/fence.cuh"
#include "ptx/mbarrier.cuh"
#include "ptx/mma.cuh"
#include "ptx/smem.cuh"
#include "ptx/tma.cuh"
#include "skinny/skinny.cuh"

namespace dg_skinny {

template <int ROWS, int COLS, int WARPS, int STAGES, int CHUNKS>
struct BulkShape {
  // CHUNKS chunks of 32 k a warp and stage: a row's copy is WARPS * CHUNKS * 64 bytes (the TMA
  // engine's cost is per copy: 512-byte copies held `42d` near 2.5 TB/s).
  static constexpr int kStageK = WARPS * CHUNKS * kChunk;
  // A line of a stage: kStageK elements and 16 bytes of padding (the fragment reads of 8 rows
  // at one k then spread over the banks).
  static constexpr int kLineBytes = kStageK * 2 + 16;
  static constexpr int kStageBytes = (ROWS + COLS) * kLineBytes;
  static constexpr int kReduceOffset = STAGES * kStageBytes;
  static constexpr int kReduceBytes = WARPS * ROWS * COLS * 4;
  static constexpr int kBarOffset = kReduceOffset + kReduceBytes;
  static constexpr int kSmemBytes = kBarOffset + 2 * STAGES * 8;
  static constexpr int kThreads = (WARPS + 1) * 32;
  static_assert(ROWS % 16 == 0 && COLS % 8 == 0 && STAGES >= 2, "skinny shape");
  static_assert(kStageBytes % 16 == 0 && kReduceOffset % 16 == 0, "16-byte aligned copies");
};

template <typename TAB, typename TCD, int ROWS, int COLS, int WARPS, int STAGES, int CHUNKS>
__device__ __forceinline__ void skinny_bulk(const GemmParams& p, unsigned char* smem) {
  using S = BulkShape<ROWS, COLS, WARPS, STAGES, CHUNKS>;
  constexpr int MT = ROWS / 16;
  constexpr int NT = COLS / 8;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;

  const float alpha = p.alpha_ptr != nullptr ? *p.alpha_ptr : p.alpha;
  const float beta = p.beta_ptr != nullptr ? *p.beta_ptr : p.beta;
  const bool has_product = p.k > 0;  // as skinny.cuh
  const long long stages_per_item = has_product ? (p.k + S::kStageK - 1) / S::kStageK : 0;
  const long long row_blocks = (p.m + ROWS - 1) / ROWS;
  const long long items = row_blocks * p.batch;
  const unsigned base = smem_addr(smem);
  const unsigned full0 = base + S::kBarOffset;
  const unsigned empty0 = full0 + STAGES * 8;

  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < STAGES; ++s) {
      mbarrier_init(full0 + s * 8, 1);
      mbarrier_init(empty0 + s * 8, WARPS);
    }
    fence_barrier_init();
  }
  __syncthreads();

  if (warp == WARPS) {
    // Producer: lane 0 announces a stage's bytes, then every lane copies its rows.
    const TAB* a = static_cast<const TAB*>(p.a);
    const TAB* b = static_cast<const TAB*>(p.b);
    const unsigned long long stream = l2_policy_evict_first();
    long long it = 0;
    for (long long work = blockIdx.x; work < items; work += gridDim.x) {
      const long long batch = work / row_blocks;
      const long long i0 = (work % row_blocks) * ROWS;
      const int rows = static_cast<int>(p.m - i0 < ROWS ? p.m - i0 : ROWS);
      const int cols = static_cast<int>(p.n < COLS ? p.n : COLS);
      for (long long c = 0; c < stages_per_item; ++c, ++it) {
        const int slot = static_cast<int>(it % STAGES);
        const unsigned parity = static_cast<unsigned>((it / STAGES) & 1);
        if (it >= STAGES) mbarrier_wait_parity(empty0 + slot * 8, parity ^ 1);
        const long long k0 = c * S::kStageK;
        const unsigned bytes =
            static_cast<unsigned>((p.k - k0 < S::kStageK ? p.k - k0 : S::kStageK) * 2);
        if (lane == 0) mbarrier_arrive_expect_tx(full0 + slot * 8, bytes * (rows + cols));
        __syncwarp();
        const unsigned dst = base + slot * S::kStageBytes;
        for (int r = lane; r < rows + cols; r += 32) {
          if (r < rows) {
            bulk_load_hint(dst + r * S::kLineBytes, a + batch * p.a_bs + (i0 + r) * p.a_ms + k0, bytes,
                           full0 + slot * 8, stream);
          } else {
            const int j = r - rows;
            // B is small and every CTA reads it: no evict-first.
            bulk_load(dst + (ROWS + j) * S::kLineBytes, b + batch * p.b_bs + j * p.b_ns + k0, bytes,
                      full0 + slot * 8);
          }
        }
      }
    }
    return;
  }

  // Consumers.
  const int g = lane / 4;
  const int t = lane % 4;
  float* part = reinterpret_cast<float*>(smem + S::kReduceOffset);
  constexpr int kConsumerThreads = WARPS * 32;
  long long it = 0;
  for (long long work = blockIdx.x; work < items; work += gridDim.x) {
    const long long batch = work / row_blocks;
    const long long i0 = (work % row_blocks) * ROWS;
    float acc[MT][NT][4];
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
      for (int nt = 0; nt < NT; ++nt)
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[mt][nt][e] = 0.f;
    for (long long cs = 0; cs < stages_per_item; ++cs, ++it) {
      const int slot = static_cast<int>(it % STAGES);
      const unsigned parity = static_cast<unsigned>((it / STAGES) & 1);
      mbarrier_wait_parity(full0 + slot * 8, parity);
      // This warp's CHUNKS chunks of the stage (contiguous); a thread's 8 k past the end read
      // as zero (the line's bytes there are a previous stage's).
      unsigned w[CHUNKS][2 * MT][4];
      unsigned x[CHUNKS][NT][4];
#pragma unroll
      for (int j = 0; j < CHUNKS; ++j) {
        const int kk = (warp * CHUNKS + j) * kChunk + 8 * t;
        const unsigned src = base + slot * S::kStageBytes + kk * 2;
#pragma unroll
        for (int v = 0; v < 2 * MT; ++v)
          ld_shared_v4(src + ((v / 2) * 16 + g + (v % 2) * 8) * S::kLineBytes, w[j][v]);
#pragma unroll
        for (int nt = 0; nt < NT; ++nt) ld_shared_v4(src + (ROWS + nt * 8 + g) * S::kLineBytes, x[j][nt]);
      }
#pragma unroll
      for (int j = 0; j < CHUNKS; ++j) {
        const bool k_in = cs * S::kStageK + (warp * CHUNKS + j) * kChunk + 8 * t < p.k;
        if (!k_in) {
          // Zeros, not a skipped mma: mma.sync needs the whole warp.
#pragma unroll
          for (int v = 0; v < 2 * MT; ++v)
#pragma unroll
            for (int e = 0; e < 4; ++e) w[j][v][e] = 0u;
#pragma unroll
          for (int nt = 0; nt < NT; ++nt)
#pragma unroll
            for (int e = 0; e < 4; ++e) x[j][nt][e] = 0u;
        }
        chunk_mmas<TAB>(acc, w[j], x[j]);
      }
      // The stage goes back to the producer only after the mmas consumed every value read from
      // it: released right after the loads, the next bulk copy overwrote lines whose ld.shared
      // had not yet read them (`42e`: wrong results where the producer refilled a stage at
      // once, 12 loads a thread in flight; none with 3).
      __syncwarp();
      if (lane == 0) mbarrier_arrive(empty0 + slot * 8);
    }
    // Columns of B past n were never copied: their lanes' products land in columns of D that
    // are not stored. Rows past m likewise.
    store_partials<ROWS, COLS>(part, warp, g, t, acc);
    named_barrier_sync(1, kConsumerThreads);
    finish_rows<TCD, ROWS, COLS, WARPS>(p, part, batch, i0, alpha, beta, has_product,
                                        static_cast<int>(threadIdx.x), kConsumerThreads);
    // The partials are read before the next item's are written.
    named_barrier_sync(1, kConsumerThreads);
  }
}

}  // namespace dg_skinny
