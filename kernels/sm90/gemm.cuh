// Hopper (sm_90a) main-tile GEMM: TMA loads into a multi-stage shared-memory ring, wgmma with
// fp32 accumulators in registers, one producer warpgroup and two consumer warpgroups, a
// persistent grid walking tiles in grouped order, and the epilogue fused: TMA stores that
// drain while the next tile computes (sm90/store.cuh) where D allows, else staged through
// shared memory for coalesced C/D accesses (sm90/epilogue.cuh).
//
// Four consumer schedules, told apart by BLOCK_M and kConsumers:
//   - cooperative (BLOCK_M = 128): both consumers compute every tile, 64 rows each, and both
//     are off the tensor cores during its epilogue; the tall tile (BLOCK_M = 192, kConsumers =
//     3) likewise with three consumers of 64 rows, 512 threads (data-parallel, unclustered or
//     in 1 x 2 with A multicast, K-major A: tile counts the 128-row tiles miss, and in 1 x 2
//     fewer L2 requests a CTA; cuBLASLt runs 192x72 in 1 x 2 under a wave);
//   - column split (BLOCK_M = 192, kConsumers = 2, kColSplit): each consumer computes every
//     row of the tile, in three m64 blocks, and half its columns (consumer c columns
//     [c BLOCK_N / 2, (c + 1) BLOCK_N / 2)): three m64n(BLOCK_N / 2) wgmmas a k-slice, 144
//     accumulators a thread at 192 x 192 (cuBLASLt's "coopB" 192x192 tiles, 384 threads).
//     The mainloop probe (scripts/probes/tile-forms.cu, session 69) ran a 128 x 128 block of D
//     in 579 cycles a 64-k at 192 x 192 against 610 at 128 x 256 (aligned lines) and 831
//     against 908 where lines start mid-sector. The epilogue runs the row-split one on each
//     64-row block at the consumer's column base. Data-parallel, 16-bit in, B K-major: TN
//     unclustered, 2 x 1 (B multicast) or 1 x 2 (A multicast); NN (an M-major A, three
//     128-byte chunks a stage, session 77) unclustered or 2 x 1;
//   - solo (BLOCK_M = 64, kConsumers = 1): one consumer warpgroup computes whole 64-row tiles
//     in a CTA of 256 threads, small enough (shared memory, registers) that two CTAs share an
//     SM: twice the CTAs of the 128-row tiles on shapes with few tiles, each SM's two CTAs
//     overlapping their loads, mainloops and epilogues on their own. Data-parallel only, like
//     ping-pong;
//   - ping-pong (BLOCK_M = 64): each consumer computes whole 64-row tiles, the CTA's units
//     taken in turn (even units consumer 0, odd units consumer 1). The producer fills the ring
//     in unit order, so the mainloops alternate, and each epilogue (and the drain of the last
//     wgmma batch) runs while the other consumer's mainloop keeps the tensor cores busy. A
//     consumer starts a mainloop only once the other has passed the last full barrier of its
//     own (the `turn` barriers): the ring's parity waits tell apart only consecutive phases of
//     a stage, and a consumer that skipped the other's unit would otherwise wait on a stage
//     several phases early and take an earlier unit's data. Data-parallel only (the host
//     launches no Stream-K phase), like split-K clusters.
//   - wide ping-pong (BLOCK_M = 128, kWidePingPong): ping-pong over 128-row tiles, each
//     consumer computing its tile in two m64 blocks (two m64nBLOCK_N wgmmas a k-slice, 128
//     accumulators a thread at 128 wide), so that each tile's epilogue hides under the other
//     consumer's mainloop as with 64-row tiles, at 1.33x the loaded bytes a multiply-add of
//     128 x 256 (64-row tiles: 1.67x). 16-bit inputs, unclustered or 2 x 1 (B multicast).
//
// Split-K in a cluster (kSplitK CTAs; pairs are built): the CTAs of a cluster compute equal
// shares of the k-loop of the same tiles. CTA c (c = 0, 1) finishes consumer c's 64 rows:
// every other CTA's consumer c stores its partial accumulators straight into a slot of CTA c's
// shared memory (distributed shared memory) and arrives on CTA c's barrier, and CTA c adds
// them, in rank order, to its own and runs the epilogue. No workspace, no flags through L2 (a
// split-K fixup through global memory cost 3-5 us per launch on the H200: BENCHMARKS.md,
// session 7), and the sum's order does not depend on which CTA finished first. Data-parallel
// over clusters.
//
// Computes, for every batch, D = act(alpha * op(A) op(B) + beta * C + bias[row]) for op(A)
// (m x k) and op(B) (k x n) each either K-major in memory (kTransA / kTransB = 0; cuBLAS
// column-major transa = T, transb = N) or MN-major (= 1; transa = N, transb = T), the wgmma
// descriptors' two layouts. Inputs are bf16 or fp16 (wgmma k16), or fp32 multiplied as tf32
// (T = float, COMPUTE_32F_FAST_TF32: wgmma k8, BLOCK_K = 32, fp32 D): the PTX ISA gives the
// .tf32 form no transpose operands, so tf32 takes a K-major B only, and an MN-major A through
// registers (kRegA; an MN-major tf32 B stays on the portable kernel). The tensor maps hold A's and B's addresses, extents and strides;
// TMA zero-fills outside them, so m, n and k need not be tile multiples (the epilogue skips
// the rows and columns past m and n; TMA stores clip them).
//
// Tensor maps (src/runtime/tensor_map.rs), dimensions innermost first, 128-byte swizzle:
//   K-major A:  (k, m, batch), box (128 bytes of k, BLOCK_M, 1): one load per stage and
//   128-byte slab of k (a stage of 128-deep k, BLOCK_K = 128 for 16-bit inputs: two, the
//   second at k + 64 and BLOCK_M lines further in shared memory). For tf32 the map's type is
//   TFLOAT32, so TMA rounds each fp32 to tf32 on the way into shared memory.
//   MN-major A: (m, k, batch), box (128 bytes of m: 64 16-bit or 32 fp32 values, BLOCK_K, 1):
//   one load per 128-byte chunk of rows per stage.
//   B likewise with n and BLOCK_N.
//   D (TMA-store epilogue only, SM90_FLAG_TMA_STORE): column-major (m, n, batch) or row-major
//   (n, m, batch), box (64, 64, 1), one per consumer warpgroup and 64 columns.
//   C (SM90_FLAG_C_TMA, with beta != 0): as D, loaded into the TMA-store staging. Without it,
//   a tile whose last box is partial has D's whole-box map in this slot (SM90_FLAG_D_BOXES;
//   a column-major D's map then has the partial box's width).
//
// The entry point (`extern "C"`, named after the variant) is appended by src/jit/sm90.rs:
//   extern "C" __global__ void __launch_bounds__(384, 1) NAME(
//       const __grid_constant__ dg_sm90::Sm90Params params,
//       const __grid_constant__ dg_sm90::TmaDescriptor tmap_a,
//       const __grid_constant__ dg_sm90::TmaDescriptor tmap_b,
//       const __grid_constant__ dg_sm90::TmaDescriptor tmap_d,
//       const __grid_constant__ dg_sm90::TmaDescriptor tmap_c);
// launched with grid = min(#tiles, #SMs), block = 384, dynamic shared memory = kSmemBytes
// (solo variants: __launch_bounds__(256, 2), grid = min(#tiles, 2 #SMs), block = 256).
#pragma once

#include "ptx/cluster.cuh"
#include "ptx/dsmem.cuh"
#include "ptx/fence.cuh"
#include "ptx/global_sync.cuh"
#include "ptx/griddep.cuh"
#include "ptx/mbarrier.cuh"
#include "ptx/regs.cuh"
#include "ptx/smem.cuh"
#include "ptx/tma.cuh"
#include "ptx/wgmma.cuh"
#include "sm90/descriptor.cuh"
#include "sm90/epilogue.cuh"
#include "sm90/pipeline.cuh"
#include "sm90/scheduler.cuh"
#include "sm90/store.cuh"
#include "sm90/trace.cuh"
#include "sm90/types.cuh"

#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "the sm90 GEMM needs sm_90a (wgmma, setmaxnreg): compile with --gpu-architecture=sm_90a"
#endif

namespace dg_sm90 {

constexpr int kThreadsPerWarpgroup = 128;
// The producer only issues TMA; the consumers hold 64 x BLOCK_N fp32 accumulators each
// (128 registers at BLOCK_N = 256). 40 * 128 + 232 * 256 = 64512 <= 65536 registers per SM;
// a solo CTA (one consumer, two CTAs an SM) launches at 128 a thread and hands the producer's
// 88 to its consumer: 40 * 128 + 216 * 128 = 32768, half the SM.
constexpr int kProducerRegs = 40;
// Three consumers (the 192-row tall tile, 512 threads at 128 registers each at entry): 40 * 128
// + 152 * 384 = 63488 <= 65536, accumulators up to 64 x 128 fp32 (64 registers) a thread (ptxas reports 128 a thread: 144 wide spilled).
template <int kNumConsumers>
constexpr int kConsumerRegs = kNumConsumers == 1 ? 216 : kNumConsumers == 3 ? 152 : 232;
// The column split's consumers hold 144 accumulators at 192 x 192 and spilled their schedule's
// state at 232: its producer gives up 16 more (24 * 128 + 240 * 256 = 64512, the 168 a thread
// the CTA holds from its launch; setmaxnreg.inc waits for registers the CTA does not have, so
// 32 / 240 hung at the hand-over, session 70).
constexpr int kProducerRegsColSplit = 24;
constexpr int kConsumerRegsColSplit = 240;

// Shared memory of the epilogue, per CTA: per consumer, the general path's fp32 staging
// (StagedShape) and the TMA-store path's 16-bit boxes (StoreShape, 16-bit D only) in the same
// bytes; a warpgroup uses one at a time (the Stream-K tiles of a TMA-store launch take the
// general path, after draining the stores). Mirrored by `Sm90Variant::epilogue_smem_bytes`
// in src/plan/sm90.rs.
template <typename OutT, int kNumConsumers, bool kCanTmaStore>
struct EpilogueSmem {
  static constexpr unsigned kGeneral = StagedShape::kFloats * sizeof(float);
  static constexpr unsigned kTmaStore = kCanTmaStore ? StoreShape::kBytes : 0;
  // Per warpgroup; a multiple of 1024 bytes whenever the TMA-store staging is in it.
  static constexpr unsigned kStride = kGeneral > kTmaStore ? kGeneral : kTmaStore;
  static constexpr unsigned kBytes = kNumConsumers * kStride;
};

// 16-bit D can take the TMA-store epilogue on tiles at least 64 wide (stmatrix stores 16-bit
// elements; the narrow n16/n32 tiles always take the general one). Widths that are not whole
// 64-column boxes store 16 (or 8) columns at a time: whole lines of a column-major D, slabs of
// a row-major D's lines (sm90/store.cuh).
template <typename OutT, int BLOCK_N>
struct CanTmaStore {
  static constexpr bool kValue = sizeof(OutT) == 2 && BLOCK_N >= 64 && BLOCK_N % 8 == 0;
};

// Split-K clusters: the 64 x BLOCK_N fp32 partials of the consumer this CTA finishes, one slot
// per other CTA of the cluster (rank r in slot r, or r - 1 past this CTA's own rank), each in
// the accumulators' register order (thread t's registers 4j..4j+3 at float (128 j + t) * 4, so
// each warp's 16-byte stores and loads are contiguous). Mirrored by
// `Sm90Variant::split_landing_bytes` in src/plan/sm90.rs.
template <int BLOCK_N, int kSplitK>
struct SplitLanding {
  static constexpr unsigned kStride = 64u * BLOCK_N * sizeof(float);
  static constexpr unsigned kBytes = kSplitK > 1 ? (kSplitK - 1) * kStride : 0;
};

// The TMA-store epilogue adds a bias along n (a swapped problem's; src/plan/sm90.rs
// `Sm90Variant::tma_bias_col`) on 128-row tiles: up to 64 wide in every instantiation
// (kEvery), and on tiles up to 240 wide, in widths a multiple of 16, in instantiations only
// launches with such a bias take (kOwn; built into every launch it cost the plain epilogues
// 2-8%, session 34; 248 and 256 wide spilled). Not the ring-epilogue or split-K-cluster
// variants over 64 wide: they read no C by TMA, so with beta != 0 they take the general
// epilogue, which adds it up to 64 wide only (their plain twins take those launches; the ring
// ones compile with it without spills, session 36). Each consumer warpgroup stages the
// tile's bias as fp32 in kBytes / 2 bytes of shared memory past the epilogue's staging
// (sm90/store.cuh `stage_bias_cols`). Mirrored by `Sm90Variant::bias_col_smem_bytes`.
template <typename OutT, int BLOCK_M, int BLOCK_N, int kSplitK, bool kRingEpilogue,
          bool kWidePingPong>
struct TmaBiasCol {
  static constexpr bool kAny =
      CanTmaStore<OutT, BLOCK_N>::kValue && BLOCK_M == 128 && !kWidePingPong &&
      (BLOCK_N <= 64 || (BLOCK_N <= 240 && BLOCK_N % 16 == 0 && !kRingEpilogue && kSplitK == 1));
  static constexpr bool kEvery = kAny && BLOCK_N <= 64;
  static constexpr bool kOwn = kAny && BLOCK_N > 64;
  static constexpr unsigned kStride = BLOCK_N * sizeof(float);  // per consumer warpgroup
  static constexpr unsigned kBytes = kAny ? 2 * kStride : 0;
};

// The ring buffers, the epilogue's staging, and the ring's barriers. Each stage's tiles and
// the staging start on a 1024-byte boundary, the period of the 128-byte swizzle, which the
// wgmma descriptors (base offset 0) and the TMA store's staging layout assume.
template <typename T, typename OutT, int BLOCK_M, int BLOCK_N, int BLOCK_K, int kNumStages,
          int kSplitK, bool kRingEpilogue, int kNumConsumers, bool kWidePingPong>
struct SharedStorage {
  alignas(1024) T a[kNumStages][BLOCK_M * BLOCK_K];
  alignas(1024) T b[kNumStages][BLOCK_N * BLOCK_K];
  // The epilogue's staging, then (split-K clusters) the landing buffers of the peer's partials;
  // a 16-byte placeholder where the staging is in the ring (kRingEpilogue, mirrored by
  // RING_EPILOGUE_PLACEHOLDER_BYTES in src/plan/sm90.rs).
  // Then the bias along n's staging (TmaBiasCol), at kBiasOffset.
  static constexpr unsigned kBiasOffset =
      kRingEpilogue ? 16
                    : EpilogueSmem<OutT, kNumConsumers, CanTmaStore<OutT, BLOCK_N>::kValue>::kBytes +
                          SplitLanding<BLOCK_N, kSplitK>::kBytes;
  alignas(1024) unsigned char
      epilogue[kBiasOffset +
               TmaBiasCol<OutT, BLOCK_M, BLOCK_N, kSplitK, kRingEpilogue, kWidePingPong>::kBytes];
  unsigned long long full[kNumStages];
  unsigned long long empty[kNumStages];
  // Ping-pong: turn[c] completes a phase when the other consumer has issued a mainloop.
  // Split-K clusters: turn[2] when the other CTAs' partials of the consumer this CTA finishes
  // have landed here, turn[4 + c] when consumer c's finisher has read what this CTA stored.
  unsigned long long turn[kSplitK > 1 ? 6 : 2];
  // C's boxes loaded by TMA into the TMA-store staging (SM90_FLAG_C_TMA): one barrier per
  // buffer of each consumer warpgroup (sm90/store.cuh epilogue_c_first); room for two
  // consumers in the solo tiles too (their layout predates the tall tile's third).
  static constexpr int kCBarriers = (kNumConsumers > 2 ? kNumConsumers : 2) * StoreShape::kBuffers;
  unsigned long long c_full[kCBarriers];
};

// One operand's tiles in a stage: where the loads go and how wgmma sees them.
//   K-major: kSlabs slabs of ROWS lines of 128 bytes (64 16-bit or 32 fp32 k-values each), one
//   TMA box a slab: a stage of BLOCK_K = 64 (16-bit) has one, of 128 two (session 44: the
//   mainloop alone ran a 64x64 tile's 64-k in 366 cycles with 128-deep stages against 568 with
//   64-deep ones, 128x64 506 against 742: half the barrier round trips and wgmma batches).
//   MN-major: ROWS / kMnPerLine chunks, each BLOCK_K lines of 128 bytes (64 16-bit or 32 fp32
//   M/N values each), one TMA box per chunk, chunks kChunkBytes apart (the descriptor's LBO;
//   an fp32 A is read from it by the register-A path, `load_a_fragment_tf32_mn`).
// One wgmma consumes a 32-byte k-slice of every line: k16 of 16-bit values, k8 of tf32.
template <typename T, int ROWS, int BLOCK_K, int kTrans>
struct OperandTile {
  static constexpr unsigned kLineBytes = 128;
  static constexpr int kMnPerLine = kLineBytes / sizeof(T);  // 64 for 16-bit types
  static constexpr int kMmaK = 32 / sizeof(T);               // k per wgmma: 16, or 8 for tf32
  static constexpr unsigned kChunkBytes = BLOCK_K * kLineBytes;
  static constexpr int kLoads = kTrans == 0 ? 1 : ROWS / kMnPerLine;
  static_assert(kTrans == 0 || ROWS % kMnPerLine == 0, "MN-major tiles are whole 128-byte chunks");
  // K-major: 128-byte slabs of k a stage, and the wgmmas of one slab.
  static constexpr int kSlabs = BLOCK_K * static_cast<int>(sizeof(T)) / static_cast<int>(kLineBytes);
  static constexpr unsigned kSlabBytes = ROWS * kLineBytes;
  static constexpr int kMmasPerSlab = kMnPerLine / kMmaK;
  static_assert(kSlabs == 1 || kSlabs == 2, "a stage holds one or two 128-byte slabs of k");

  // Issues this stage's TMA loads of the tile at (row0, k0) into smem at `dst`; with
  // `evict_first`, the lines are marked first to leave L2 (SM90_FLAG_STREAM_A / _B).
  __device__ __forceinline__ static void load(unsigned dst, const TmaDescriptor& tmap,
                                              unsigned full, int row0, int k0, int batch,
                                              bool evict_first) {
    if constexpr (kTrans == 0 && kSlabs == 1) {
      copy(dst, tmap, full, k0, row0, batch, evict_first);
    } else if constexpr (kTrans == 0) {
      // (Separate from one slab's form, whose code stays as it was before 128-deep stages.)
#pragma unroll
      for (int d = 0; d < kSlabs; ++d) {
        copy(dst + d * kSlabBytes, tmap, full, k0 + d * kMnPerLine, row0, batch, evict_first);
      }
    } else {
#pragma unroll
      for (int c = 0; c < kLoads; ++c) {
        copy(dst + c * kChunkBytes, tmap, full, row0 + c * kMnPerLine, k0, batch, evict_first);
      }
    }
  }

  __device__ __forceinline__ static void copy(unsigned dst, const TmaDescriptor& tmap,
                                              unsigned full, int c0, int c1, int batch,
                                              bool evict_first) {
    if (evict_first) {
      tma_load_3d_hint(dst, &tmap, full, c0, c1, batch, l2_policy_evict_first());
    } else {
      tma_load_3d(dst, &tmap, full, c0, c1, batch);
    }
  }

  // Share `rank` of `kParts` of the tile, multicast to the CTAs in `mask`, which each load the
  // other shares: K-major, rows [rank, rank + 1) * ROWS / kParts as one box (the tensor map's
  // box has ROWS / kParts rows); MN-major, a range of whole 128-byte chunks (192 = 1 + 2).
  template <int kParts>
  __device__ __forceinline__ static void load_share(unsigned dst, const TmaDescriptor& tmap,
                                                    unsigned full, int row0, int k0, int batch,
                                                    int rank, unsigned short mask) {
    if constexpr (kTrans == 0) {
      constexpr int kRows = ROWS / kParts;
      static_assert(ROWS % kParts == 0 && (kRows * kLineBytes) % 1024 == 0,
                    "each share keeps the swizzle period");
      if constexpr (kSlabs == 1) {
        tma_load_3d_multicast(dst + rank * kRows * kLineBytes, &tmap, full, k0,
                              row0 + rank * kRows, batch, mask);
      } else {
#pragma unroll
        for (int d = 0; d < kSlabs; ++d) {
          tma_load_3d_multicast(dst + d * kSlabBytes + rank * kRows * kLineBytes, &tmap, full,
                                k0 + d * kMnPerLine, row0 + rank * kRows, batch, mask);
        }
      }
    } else {
      const int begin = rank * kLoads / kParts;
      const int end = (rank + 1) * kLoads / kParts;
#pragma unroll 1
      for (int c = begin; c < end; ++c) {
        tma_load_3d_multicast(dst + c * kChunkBytes, &tmap, full, row0 + c * kMnPerLine, k0,
                              batch, mask);
      }
    }
  }

  // Byte offset of row `row` (a multiple of 64) from the tile start (K-major: in the first
  // slab; `desc` adds the slab).
  __device__ __forceinline__ static constexpr unsigned row_offset(int row) {
    return kTrans == 0 ? row * kLineBytes : (row / kMnPerLine) * kChunkBytes;
  }

  // Descriptor of the kMmaK-deep k-slice `kk` of the sub-tile starting at `base`.
  __device__ __forceinline__ static unsigned long long desc(unsigned base, int kk) {
    if constexpr (kTrans == 0 && kSlabs == 1) {
      return desc_kmajor_sw128(base + kk * kMmaK * sizeof(T));
    } else if constexpr (kTrans == 0) {
      return desc_kmajor_sw128(base + (kk / kMmasPerSlab) * kSlabBytes +
                               (kk % kMmasPerSlab) * kMmaK * sizeof(T));
    } else {
      return desc_mnmajor_sw128(base + kk * kMmaK * kLineBytes, kChunkBytes);
    }
  }
};

// Stream-K fixup, owner side: waits until every CTA that computed a share of the tile of `unit`
// (the CTAs before this one whose ranges reach into it) has raised its flag for this
// warpgroup, and returns where their partials are, in CTA order. Thread i spins on
// contributors i, i + 128, ... (one exposed L2 round trip when the flags are up, instead of
// one per contributor: split-K owners of small-m problems have up to 131 of them); the
// barrier passes the acquired views on to the others.
// Stream-K indices are the scheduler's units: CTAs, or multicast clusters, which walk the
// same units of cluster tiles (each CTA computes its own tile of each), so the operands stay
// multicast; CTA r of unit u keeps its partial and flags in slot u * (CTAs a cluster) + r.
struct StreamKSlots {
  int self;     // this CTA's unit (its CTA index, or its cluster's)
  int cluster;  // CTAs a cluster
  int rank;     // this CTA's rank in its cluster
  __device__ __forceinline__ int slot(int unit) const { return unit * cluster + rank; }
};

// The first unit whose Stream-K range reaches into the tile of `unit` (this one's own index
// when none before it does).
__device__ __forceinline__ int streamk_first_contributor(const Sm90Params& p, int k_iters,
                                                         const WorkUnit& unit, int self) {
  const int tile_start = unit.tile * k_iters;
  int first = self;
  while (first > 0 &&
         WorkSchedule::range_begin(p.sk_base, p.sk_rem, first) > tile_start) {
    --first;
  }
  return first;
}

// Stream-K owner, at the start of its unit's mainloop: asks L2 for the partials it will add
// at the end (thread i those of contributors i, i + 128, ...), so that one written long
// before (a head unit comes first in its CTA's range) need not come back from DRAM during the
// fixup. One not written yet is fetched stale, which its writes then replace in L2. (Landed
// with the TMA-store fixup, session 13; its share of that change's gain was not measured.)
__device__ __forceinline__ void streamk_prefetch_partials(const Sm90Params& p, int k_iters,
                                                          const WorkUnit& unit, int consumer,
                                                          int tid, long long slot_floats,
                                                          const StreamKSlots& sl) {
  const int first = streamk_first_contributor(p, k_iters, unit, sl.self);
#pragma unroll 1
  for (int c = first + tid; c < sl.self; c += 128) {
    bulk_prefetch_l2(StreamKWorkspace::partial(p.workspace, p.sk_ctas * sl.cluster, sl.slot(c),
                                               consumer, slot_floats),
                     static_cast<unsigned>(slot_floats * 4));
  }
}

__device__ __forceinline__ Fixup streamk_wait_partials(const Sm90Params& p, int k_iters,
                                                       const WorkUnit& unit, int consumer,
                                                       int barrier_id, int tid,
                                                       long long slot_floats,
                                                       const StreamKSlots& sl) {
  const int last = sl.self;
  const int first = streamk_first_contributor(p, k_iters, unit, sl.self);
#pragma unroll 1
  for (int c = first + tid; c < last; c += 128) {
    unsigned long long* flag = StreamKWorkspace::flag(p.workspace, sl.slot(c), consumer);
    while (ld_acquire_gpu(flag) != p.epoch) {
      nanosleep(64);
    }
    // Cleared for the next launch on this workspace (stream order puts it after this one):
    // nobody else reads this flag in this launch.
    st_relaxed_gpu(flag, 0ull);
  }
  named_barrier_sync(barrier_id, 128);
  // Consecutive units' slots of this rank are a cluster's CTAs apart.
  return Fixup{StreamKWorkspace::partial(p.workspace, p.sk_ctas * sl.cluster, sl.slot(first),
                                         consumer, slot_floats),
               sl.cluster * StreamKWorkspace::kConsumers * slot_floats, last - first};
}

// The tf32 A fragment of k-slice `kk` (8 deep) for warp `warp` of a consumer warpgroup, read
// from that warpgroup's 64 rows of an MN-major fp32 A tile as TMA wrote it: chunks of 32 rows
// (128 bytes, one swizzle line per k) 4 KiB apart (BLOCK_K lines each), each line's 16-byte
// units permuted by the 128-byte swizzle (unit u of line k at u ^ (k % 8)). Element (m, k) of
// the fragment layout in ptx/wgmma.cuh (`WgmmaRsTf32`). The fixed fragment layout makes lanes
// (g, t) and (g +- 4, t ^ 1) meet on one bank (2-way conflicts); NN measured as fast as TN.
template <int BLOCK_K>
__device__ __forceinline__ void load_a_fragment_tf32_mn(unsigned tile, int kk, int warp, int lane,
                                                        unsigned (&a)[4]) {
  constexpr unsigned kChunkBytes = BLOCK_K * 128;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int m = 16 * warp + lane / 4 + 8 * (i & 1);
    const int k = 8 * kk + lane % 4 + 4 * (i >> 1);
    const unsigned unit = static_cast<unsigned>(((m & 31) >> 2) ^ (k & 7));
    a[i] = ld_shared_u32(tile + (m >> 5) * kChunkBytes + k * 128 + unit * 16 + (m & 3) * 4);
  }
}

template <typename T, typename OutT, int BLOCK_M, int BLOCK_N, int BLOCK_K, int kNumStages,
          int kSmemBytes, int kClusterM, int kClusterN, int kSplitK, int kTransA, int kTransB,
          bool kRingEpilogue, int kConsumers, bool kWidePingPong>
__device__ __forceinline__ void gemm(const Sm90Params& p, const TmaDescriptor& tmap_a,
                                     const TmaDescriptor& tmap_b, const TmaDescriptor& tmap_d,
                                     const TmaDescriptor& tmap_c) {
  // ---- Template constants, derived sizes, and every assumption checked. ----
  constexpr int kNumConsumers = kConsumers;
  constexpr bool kSolo = kNumConsumers == 1;
  // Ping-pong over 64-row tiles (BLOCK_M = 64), or over 128-row ones (kWidePingPong: each
  // consumer two m64 blocks of the whole tile, as the column split's three).
  constexpr bool kPingPong = (BLOCK_M == 64 && !kSolo) || kWidePingPong;
  // A bias along n in the TMA-store epilogue (see TmaBiasCol): in every instantiation of the
  // 64-wide tiles, in instantiations of their own on wider ones.
  using BiasCol = TmaBiasCol<OutT, BLOCK_M, BLOCK_N, kSplitK, kRingEpilogue, kWidePingPong>;
  constexpr bool kTmaBiasCol = BiasCol::kEvery;
  constexpr bool kWideBiasCol = BiasCol::kOwn;
  // Consumer warpgroups that read each stage: both (cooperative) or the one whose unit it is.
  constexpr int kStageReaders = kPingPong ? 1 : kNumConsumers;
  constexpr int kNumThreads = (1 + kNumConsumers) * kThreadsPerWarpgroup;
  // Column split (see the top): a consumer's m64 blocks and columns; one block of the whole
  // width otherwise.
  constexpr bool kColSplit = BLOCK_M == 192 && kNumConsumers == 2;
  constexpr int kBlocks = kColSplit || kWidePingPong ? BLOCK_M / 64 : 1;
  constexpr int kSubN = kColSplit ? BLOCK_N / 2 : BLOCK_N;
  constexpr int kAccRegs = kSubN / 2;
  constexpr unsigned kRowBytes = BLOCK_K * sizeof(T);
  constexpr unsigned kStageBytesA = BLOCK_M * kRowBytes;
  constexpr unsigned kStageBytesB = BLOCK_N * kRowBytes;
  // tf32 has no MN-major shared-memory form (see ptx/wgmma.cuh); checked before Mma names a
  // missing form. An MN-major tf32 A goes through registers instead (kRegA): each consumer
  // thread gathers its fragment from the swizzled MN-major tile TMA wrote.
  constexpr bool kRegA = !MmaInput<T>::kMnMajor && kTransA == 1;
  static_assert(MmaInput<T>::kMnMajor || kTransB == 0,
                "tf32 wgmma reads a K-major B only (the PTX .tf32 form has no imm-trans)");
  using Mma = Wgmma<kSubN, MmaInput<T>::kInput, kRegA ? 0 : kTransA, kTransB>;
  constexpr int kMmaK = Mma::kK;
  using TileA = OperandTile<T, BLOCK_M, BLOCK_K, kTransA>;
  using TileB = OperandTile<T, BLOCK_N, BLOCK_K, kTransB>;
  using Storage =
      SharedStorage<T, OutT, BLOCK_M, BLOCK_N, BLOCK_K, kNumStages, kSplitK, kRingEpilogue,
                    kNumConsumers, kWidePingPong>;
  // Per consumer block (a column-split consumer's blocks are kSubN wide).
  constexpr bool kCanTmaStore = CanTmaStore<OutT, kSubN>::kValue;
  static_assert(kCanTmaStore == CanTmaStore<OutT, BLOCK_N>::kValue,
                "SharedStorage sizes the staging by the tile's width");

  constexpr bool kTall = kNumConsumers == 3;
  static_assert(BLOCK_M == 128 || BLOCK_M == 64 || (kTall && BLOCK_M == 192) || kColSplit,
                "two (three) consumer warpgroups of 64 rows of one tile, or of one 64-row tile each");
  static_assert(kNumConsumers == 2 || (kSolo && BLOCK_M == 64) || (kTall && BLOCK_M == 192),
                "one consumer warpgroup (solo) computes whole 64-row tiles");
  static_assert(kNumThreads == (kSolo ? 256 : kTall ? 512 : 384),
                "__launch_bounds__(384, 1), (256, 2) for solo or (512, 1) for tall, at the entry");
  // setmaxnreg moves registers within what the CTA got at launch (65536 an SM over its threads
  // and CTAs, a multiple of 8 a thread); asking for more blocks setmaxnreg.inc for ever.
  static_assert((kColSplit ? kProducerRegsColSplit : kProducerRegs) * kThreadsPerWarpgroup +
                        (kColSplit ? kConsumerRegsColSplit : kConsumerRegs<kNumConsumers>) *
                            kThreadsPerWarpgroup * kNumConsumers <=
                    (65536 / (kNumThreads * (kSolo ? 2 : 1))) / 8 * 8 * kNumThreads,
                "the register hand-over fits the CTA's launch allocation");
  static_assert(BLOCK_N == 16 || BLOCK_N == 32 ||
                    (BLOCK_N >= 64 && BLOCK_N <= 256 && BLOCK_N % 8 == 0),
                "wgmma N (one instruction; the widths between the powers of two fill waves)");
  static_assert(kRowBytes == 128 ||
                    (kRowBytes == 256 && !kRegA &&
                     (sizeof(T) == 2 || (kSolo && kTransA == 0 && kTransB == 0))),
                "BLOCK_K spans one 128-byte swizzle line, or two for 16-bit inputs and the "
                "K-major tf32 solo tiles");
  static_assert(BLOCK_M <= 256 && BLOCK_N <= 256, "a TMA box is at most 256 rows");
  static_assert(kNumStages >= 2, "the ring needs at least two stages");
  // Clusters of kClusterM x kClusterN CTAs (rank r at m-position r % kClusterM, n-position
  // r / kClusterM) compute a kClusterM x kClusterN block of adjacent tiles. The CTAs of one
  // tile column share its B tile: each loads a 1/kClusterM share, which TMA multicasts into
  // all of them (B's L2 reads drop by that factor); with kClusterN > 1 the CTAs of one tile
  // row share its A tile likewise (clusters along n alone, 1 x 2 and 1 x 4, for narrow tiles,
  // whose A outweighs their B).
  static_assert((kClusterM == 1 && (kClusterN == 1 || kClusterN == 2 || kClusterN == 4)) ||
                    (kClusterM == 2 && kClusterN <= 2),
                "clusters of 1, 2 x 1, 2 x 2, 1 x 2 or 1 x 4");
  constexpr int kClusterSize = kClusterM * kClusterN;
  constexpr bool kMulticast = kClusterSize > 1;
  // Split-K clusters: the pair's CTAs take k-halves of the same tiles (see the top).
  constexpr bool kSplitCluster = kSplitK > 1;
  // Written for S CTAs, built for pairs: clusters of 4 (branch next/split4) were correct and
  // slower in session 12 (only CTAs 0 and 1 finish tiles, so they run ~60% longer than 2 and 3).
  static_assert(kSplitK == 1 || (kSplitK == 2 && !kMulticast && !kPingPong && !kRegA &&
                                 kAccRegs % 4 == 0 && BLOCK_N <= 64),
                "split-K clusters: pairs of cooperative CTAs, tiles up to 64 wide");
  constexpr bool kClustered = kMulticast || kSplitCluster;
  // Ring epilogue (session 17): the epilogue stages in the A tiles of the first ring stages, so
  // the variant keeps a stage more. The host launches such
  // a kernel data-parallel with one tile a CTA (src/plan/streamk.rs `decompositions`): once
  // both consumers' mainloops are done no load is in flight and no wgmma reads the ring.
  static_assert(!kSolo || (!kRingEpilogue && !kClustered && !kRegA),
                "solo: unclustered tiles, A from shared memory, epilogue staging of its own");
  // A ring epilogue may run in a multicast cluster (session 68): each CTA has one tile, so
  // once its consumers have seen every stage full, every byte a peer multicasts into its ring
  // has landed and no more will come (each peer's tile has as many k-iterations).
  static_assert(!kRingEpilogue || (!kPingPong && !kSplitCluster),
                "ring epilogues: cooperative tiles, unclustered or in multicast clusters");
  // The tall tile: its Stream-K slots would need three consumers' (StreamKWorkspace holds two
  // a CTA), so the host launches it data-parallel only (src/plan/streamk.rs), and the loads of
  // an MN-major A, B multicast and split-K clusters are not built for 192 rows; clusters of
  // 1 x 2 share A (cuBLASLt's 192x72 runs so), each CTA loading 96 of its rows.
  static_assert(!kTall || ((kClusterSize == 1 || (kClusterM == 1 && kClusterN == 2)) &&
                           !kSplitCluster && !kRegA && kTransA == 0 &&
                           BLOCK_N <= 128),
                "tall tiles: unclustered or 1 x 2 (A multicast, 96 rows a CTA), K-major A, at "
                "most 128 wide (registers)");
  // Column split: B's half-tiles start kSubN rows into a K-major B tile (whole 8-row swizzle
  // atoms); a Stream-K slot would need a consumer's three blocks, so data-parallel only, as
  // the tall tile; no ring epilogue, C by TMA or split-K cluster (not built). An M-major A
  // (NN) is three 128-byte chunks, one an m64 block (`TileA::row_offset`), loaded whole by
  // each CTA: not in 1 x 2 clusters (A's multicast shares of 192 M-major rows are unbuilt).
  static_assert(!kColSplit || ((kTransA == 0 || kClusterN == 1) && kTransB == 0 && !kRegA &&
                               !kSplitCluster && !kRingEpilogue && kSubN % 8 == 0 &&
                               BLOCK_N >= 128 && (kClusterSize == 1 || kClusterSize == 2)),
                "column split: 16-bit TN or NN, unclustered, 2 x 1 or (TN) 1 x 2, halves a "
                "multiple of 8");
  // Wide ping-pong: two consumers of whole 128-row tiles, 16-bit inputs (no register A),
  // unclustered or 2 x 1 (B multicast), data-parallel; C through the general epilogue's
  // reads (its TMA loads of C are sized for one block a consumer), no bias along n by TMA.
  static_assert(!kWidePingPong ||
                    (BLOCK_M == 128 && kNumConsumers == 2 && sizeof(T) == 2 && !kSplitCluster &&
                     !kRingEpilogue && kClusterN == 1 && BLOCK_N <= 160),
                "wide ping-pong: 128-row 16-bit tiles up to 160 wide, unclustered or 2 x 1");
  static_assert(!kRingEpilogue ||
                    sizeof(T) * kNumStages * BLOCK_M * BLOCK_K >=
                        EpilogueSmem<OutT, kNumConsumers, kCanTmaStore>::kBytes,
                "the A tiles of the ring hold the epilogue's staging");
  static_assert(Mma::kAccRegs == kAccRegs, "accumulator count of m64nNkK");
  static_assert(kMmaK == TileA::kMmaK && kMmaK == TileB::kMmaK, "descriptors step one wgmma's k");
  static_assert(sizeof(T) == 2 || sizeof(OutT) == 4, "tf32 writes fp32 D");
  static_assert(sizeof(Storage) + 1024 == kSmemBytes,
                "shared-memory size differs from Sm90Variant::smem_bytes in src/plan/sm90.rs");
  static_assert(kSmemBytes <= 232448, "over the 227 KiB a Hopper block may use");
  static_assert(kStageBytesA + kStageBytesB < (1u << 20), "mbarrier transaction count limit");
  static_assert((kTransA == 0 || kTransA == 1) && (kTransB == 0 || kTransB == 1), "0 K-major, 1 MN-major");
  static_assert(TileA::kChunkBytes % 1024 == 0, "MN-major chunks keep the swizzle period");

  // DG_TRACE builds only (sm90/trace.cuh): phase timestamps. Producer thread: 1 CTA barrier
  // passed, 2 registers handed over, 3 every load issued, 4 the loads before the CTA barrier
  // issued (the first stage; with multicast, after it: the ring's first pass),
  // 5 barriers initialised (fenced), 6 its schedule made, 7 A's and B's tensor-map prefetches
  // issued (9 before A's, 10 between), 8 the stages' barriers initialised. Consumer 0: 1 CTA
  // barrier, 2 registers taken, 3 first stage full, 4 first unit's mainloop done, 5 its
  // epilogue done, 6 every unit done, 7 TMA stores drained; Stream-K (the last such unit):
  // 8 partial stored, 9 flag raised, 10 the contributors' flags seen, 11 the owner's epilogue
  // done.
  PhaseTrace trace;
  trace.begin();
  // Dynamic shared memory is only guaranteed 16-byte alignment; 1024 bytes of slack (counted in
  // kSmemBytes) let the storage start on the swizzle period.
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  const unsigned raw = smem_addr(smem_raw);
  Storage& smem = *reinterpret_cast<Storage*>(smem_raw + ((1024u - (raw & 1023u)) & 1023u));
  const Pipeline<kNumStages> pipe{smem_addr(&smem.full[0]), smem_addr(&smem.empty[0])};

  // A cluster's tiles are blocks of kClusterM x kClusterN tiles: the scheduler walks them
  // (BLOCK_M * kClusterM rows, BLOCK_N * kClusterN columns), and the CTA at (i, j) takes tile
  // row kClusterM * block_row + i and column kClusterN * block_col + j. A tile past m or n
  // still loads and multicasts its shares; TMA zero-fills the rest, and the epilogue skips it.
  // Multicast clusters take Stream-K ranges as units (sk_ctas counts clusters, the tiles are
  // the blocks: a cluster's CTAs walk the same units, so the multicast stays in step);
  // ping-pong, 64-deep solo (one 128-byte slab of k a stage: 64 16-bit or 32 fp32 values)
  // and split-K clusters run data-parallel only (the planner launches
  // no Stream-K phase; sk_tiles is ignored). Solo tiles with 128-deep stages take Stream-K
  // ranges (their one consumer uses slot 0 of its CTA's two).
  // The host computed the tile counts for those blocks (set_tiles).
  const TileScheduler sched{p};
  const int num_k_iters = p.k_iters;
  // Producer and consumers walk the same units (sm90/scheduler.cuh).
  const auto make_schedule = [&]() {
    if constexpr (kSplitCluster || kPingPong || (kSolo && BLOCK_K * sizeof(T) == 128)) {
      const int unit = kClustered ? static_cast<int>(cluster_id_x()) : static_cast<int>(blockIdx.x);
      const int units = kClustered ? static_cast<int>(cluster_count_x()) : static_cast<int>(gridDim.x);
      return WorkSchedule(p, 0, 0, 0, 0, unit, units);
    } else if constexpr (kMulticast) {
      return WorkSchedule(p, static_cast<int>(p.sk_tiles), p.sk_base, p.sk_rem, p.sk_ctas,
                          static_cast<int>(cluster_id_x()), static_cast<int>(cluster_count_x()));
    } else {
      return WorkSchedule(p, static_cast<int>(p.sk_tiles), p.sk_base, p.sk_rem, p.sk_ctas,
                          static_cast<int>(blockIdx.x), static_cast<int>(gridDim.x));
    }
  };
  const auto cluster_rank = []() { return kMulticast ? static_cast<int>(cluster_ctarank()) : 0; };
  // (Clusters along m alone keep the rank as it is: their code is as before 2 x 2 was built.)
  const auto rank_m = [&]() { return kClusterN == 1 ? cluster_rank() : cluster_rank() % kClusterM; };
  const auto rank_n = [&]() { return kClusterN == 1 ? 0 : cluster_rank() / kClusterM; };
  const auto tile_row = [&](const TileCoord& t) { return t.m_tile * kClusterM + rank_m(); };
  const auto tile_col = [&](const TileCoord& t) { return t.n_tile * kClusterN + rank_n(); };
  // Where a tile's boxes start along m (n): its own first row (column), or for a tile past the
  // matrix edge by 64 or more, moved back by the overhang's whole 64-element groups, so fewer
  // than 64 rows (columns) of its boxes stay out of bounds while they still cover the tile's
  // own. TMA's zero fill of a box's out-of-bounds part ran slower than loading as many bytes
  // once half a 128-row box or more was out: 128x128 at k = 6528, m = 2944, took 39.5 us with
  // n = 640, 40.2 with n = 608 (32 of the last column's rows out), 44.8 with 576 and 51.3 with
  // 544 (BENCHMARKS.md, session 26). Whole 64s keep a consumer warpgroup's rows and a TMA
  // store's boxes whole: a moved tile's epilogue skips the rows (columns) before its own, which
  // the tile before owns (`row_lo` / `col_lo`), as whole warpgroups and boxes.
  // src/plan/sm90.rs `box_origin` mirrors it and unit-tests that every row is written once.
  // A column-split tile moves back along n by whole halves (kStepN): each consumer's boxes are
  // then wholly the tile before's or wholly its own (a 64-step could leave a consumer's box
  // straddling col_lo, and the epilogue skips boxes whole).
  const auto inside = [](int origin, int block, long long extent, int step = 64) {
    const long long over = origin + block - extent;
    // (In 32 bits: over < 2^31 + BLOCK wherever it is used, over > 0. A 64-bit division by
    // the step made the 40-register producer spill.)
    const int back = step == 64 ? static_cast<int>(over & ~63LL)
                                : static_cast<int>(static_cast<unsigned>(over) /
                                                   static_cast<unsigned>(step) *
                                                   static_cast<unsigned>(step));
    return over > 0 && back <= origin ? origin - back : origin;
  };
  constexpr int kStepN = kColSplit ? kSubN : 64;
  // The CTAs of this one's tile column (B's multicast) and tile row (A's), as rank masks.
  const auto column_mask = [&]() {
    constexpr unsigned kColumn = (1u << kClusterM) - 1;
    return static_cast<unsigned short>(kClusterN == 1 ? kColumn : kColumn << (kClusterM * rank_n()));
  };
  const auto row_mask = [&]() {
    unsigned m = 0;
#pragma unroll
    for (int j = 0; j < kClusterN; ++j) {
      m |= 1u << (rank_m() + kClusterM * j);
    }
    return static_cast<unsigned short>(m);
  };
  // This CTA's Stream-K slots (StreamKSlots; split-K clusters and ping-pong run none).
  const auto sk_slots = [&]() {
    return StreamKSlots{kMulticast ? static_cast<int>(cluster_id_x()) : static_cast<int>(blockIdx.x),
                        kClusterSize, cluster_rank()};
  };
  // Split-K clusters: CTA r computes k-iterations [r k / S, (r + 1) k / S) of each (whole)
  // tile. The host plans them only for k_iters >= S, so no share is empty.
  const auto split_k_range = [](WorkUnit& u) {
    if constexpr (kSplitCluster) {
      const int r = static_cast<int>(cluster_ctarank());
      const int k = u.k_end;
      u.k_begin = r * k / kSplitK;
      u.k_end = (r + 1) * k / kSplitK;
    }
  };

  // The producer's walk over its units' k-iterations (thread 0 only), resumable: the ring's
  // first stage is issued right after the barriers are initialised, ahead of the CTA barrier
  // and the register hand-over (setmaxnreg), which kept a small launch from its first load for
  // ~1,900 of its ~5,000 cycles (DG_TRACE on the H200, session 7); the rest after them. Not
  // every stage: TMA takes a stage's loads at ~350 cycles each, so issuing the whole ring
  // first held the producer warpgroup's setmaxnreg.dec, and with it the consumers'
  // setmaxnreg.inc, until ~4,400 cycles into an 11-stage launch. With one stage first, 77 small
  // launches took 0.977 of the time (short-k data-parallel ones up to 12% less, long-k splits
  // up to 4% more); with four, 0.982 (session 23).
  // The column split's producer (24 registers) addresses the ring's tiles from the window's
  // base (`raw`), not from the generic pointer `smem`, whose 64 bits it spilled; the other
  // schedules keep the code their GPU runs measured. (Member offsets as pointer differences,
  // which fold to constants: NVRTC has no offsetof.)
  const auto offset_of = [&](const void* member) {
    return static_cast<unsigned>(static_cast<const unsigned char*>(member) -
                                 reinterpret_cast<const unsigned char*>(&smem));
  };
  // (Each ring's first stage computed once: recomputed at each use, or a stage's offset taken
  // from `smem` at each use, the producer spilled again.)
  const unsigned storage = kColSplit ? raw + ((1024u - (raw & 1023u)) & 1023u) : 0u;
  const unsigned ring_a0 = storage + offset_of(&smem.a[0][0]);
  const unsigned ring_b0 = storage + offset_of(&smem.b[0][0]);
  const auto ring_a = [&](int stage) {
    return kColSplit ? ring_a0 + stage * kStageBytesA : smem_addr(&smem.a[stage][0]);
  };
  const auto ring_b = [&](int stage) {
    return kColSplit ? ring_b0 + stage * kStageBytesB : smem_addr(&smem.b[stage][0]);
  };
  PipelineState<kNumStages> load_state;
  WorkSchedule load_work;
  WorkUnit load_unit{0, 0, 0};
  int load_k = 0;  // next k-iteration of load_unit
  int load_m0 = 0, load_n0 = 0, load_batch = 0;
  const bool stream_a_flag = (p.flags & SM90_FLAG_STREAM_A) != 0;
  const bool stream_b_flag = (p.flags & SM90_FLAG_STREAM_B) != 0;
  // The column split reads them from the parameters where used: kept live from the entry, they
  // were spilled by its 24-register producer.
  const auto stream_a = [&]() {
    return kColSplit ? (p.flags & SM90_FLAG_STREAM_A) != 0 : stream_a_flag;
  };
  const auto stream_b = [&]() {
    return kColSplit ? (p.flags & SM90_FLAG_STREAM_B) != 0 : stream_b_flag;
  };
  // Issues the next `budget` loads (all that are left when negative).
  const auto issue_loads = [&](int budget) {
#pragma unroll 1
    for (; budget != 0; --budget) {
      // Every unit holds at least one k-iteration (WorkSchedule deals no empty Stream-K range;
      // a split-K pair needs k_iters >= 2, `Sm90Variant::check`): an empty one would never
      // meet this test again, and its consumer would release a stage it never waited for.
      if (load_k == load_unit.k_end) {
        if (!load_work.next(load_unit)) {
          return;
        }
        split_k_range(load_unit);
        const TileCoord tile = sched.coord(load_unit.tile);
        load_m0 = inside(tile_row(tile) * BLOCK_M, BLOCK_M, p.m);
        load_n0 = inside(tile_col(tile) * BLOCK_N, BLOCK_N, p.n, kStepN);
        load_batch = static_cast<int>(tile.batch);
        load_k = load_unit.k_begin;
      }
      pipe.producer_acquire(load_state);
      // The whole B tile lands here either way: this CTA's share and the peers'.
      pipe.producer_expect(load_state, kStageBytesA + kStageBytesB);
      const unsigned full = pipe.full(load_state.stage);
      const int k0 = load_k * BLOCK_K;
      if constexpr (kClusterN > 1) {
        TileA::template load_share<kClusterN>(ring_a(load_state.stage), tmap_a,
                                              full, load_m0, k0, load_batch, rank_n(), row_mask());
      } else {
        TileA::load(ring_a(load_state.stage), tmap_a, full, load_m0, k0,
                    load_batch, stream_a());
      }
      if constexpr (kClusterM > 1) {
        TileB::template load_share<kClusterM>(ring_b(load_state.stage), tmap_b,
                                              full, load_n0, k0, load_batch, rank_m(),
                                              column_mask());
      } else {
        TileB::load(ring_b(load_state.stage), tmap_b, full, load_n0, k0,
                    load_batch, stream_b());
      }
      load_state.advance();
      ++load_k;
    }
  };

  if (threadIdx.x == 0) {
    trace.mark<9>();
    tma_prefetch_descriptor(&tmap_a);
    trace.mark<10>();
    tma_prefetch_descriptor(&tmap_b);
    trace.mark<7>();
    // Unrolled: ptxas puts a FENCE.VIEW.ASYNC.S before the barrier inits of each iteration of
    // a loop, and one before them all when the loop is unrolled.
#pragma unroll
    for (int s = 0; s < kNumStages; ++s) {
      mbarrier_init(pipe.full(s), 1);
      // With multicast, a stage is free only when the consumers of every CTA this one's loads
      // write into (its tile column, for B, and its tile row, for A) have released it.
      mbarrier_init(pipe.empty(s), kStageReaders * 4 * (kClusterM + kClusterN - 1));
    }
    trace.mark<8>();
    if constexpr (kPingPong) {
      mbarrier_init(smem_addr(&smem.turn[0]), kThreadsPerWarpgroup);
      mbarrier_init(smem_addr(&smem.turn[1]), kThreadsPerWarpgroup);
    }
    if constexpr (kCanTmaStore) {
#pragma unroll
      for (int b = 0; b < Storage::kCBarriers; ++b) {
        mbarrier_init(smem_addr(&smem.c_full[b]), 1);
      }
    }
    if constexpr (kSplitCluster) {
      // Every thread of each other CTA's sending warpgroup arrives once per tile; every thread
      // of the finishing warpgroup once per tile on each sender's.
      mbarrier_init(smem_addr(&smem.turn[2]), kThreadsPerWarpgroup * (kSplitK - 1));
      mbarrier_init(smem_addr(&smem.turn[4]), kThreadsPerWarpgroup);
      mbarrier_init(smem_addr(&smem.turn[5]), kThreadsPerWarpgroup);
    }
    fence_barrier_init();
    if constexpr (kSplitCluster) {
      cluster_arrive_relaxed();
    }
    trace.mark<5>();
    // Programmatic dependent launch (the host's DEEPGEMM_PDL): all of the above may overlap
    // the previous kernel on the stream; the first load waits for it, and the next kernel may
    // start its own prologue as soon as this grid's CTAs are all past here.
    griddep_wait();
    griddep_launch_dependents();
    if constexpr (!kMulticast) {
      // The ring starts empty: this acquires no stage a consumer holds.
      load_work = make_schedule();
      trace.mark<6>();
      issue_loads(1);
      trace.mark<4>();
    }
  }
  // The peers' barriers must be initialised before the first multicast or remote arrival.
  // Split-K clusters touch the peer only after their first mainloop: every thread arrives now
  // and waits there (`await_peer`); a whole cluster_sync here kept the consumers from their
  // first stage for ~7,000 cycles (DG_TRACE on the H200, session 11).
  if constexpr (kSplitCluster) {
    if (threadIdx.x != 0) {
      cluster_arrive_relaxed();
    }
  }
  if constexpr (kMulticast) {
    cluster_sync();
  } else {
    __syncthreads();
  }
  bool peer_ready = !kSplitCluster;
  const auto await_peer = [&]() {
    if constexpr (kSplitCluster) {
      if (!peer_ready) {
        cluster_wait();
        peer_ready = true;
      }
    }
  };
  trace.mark<1>();

  // Warp-uniform in the compiler's eyes, so the role branch is not treated as divergent.
  const int warpgroup = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x) / kThreadsPerWarpgroup, 0);

  if (warpgroup == 0) {
    // ---- Producer: one thread issues every TMA load; the other 127 retire at once. ----
    setmaxnreg_dec<kColSplit ? kProducerRegsColSplit : kProducerRegs>();
    if (threadIdx.x == 0) {
      trace.mark<2>();
      if constexpr (kMulticast) {
        load_work = make_schedule();
        issue_loads(kNumStages);
        trace.mark<4>();
      }
      issue_loads(-1);
      trace.mark<3>();
      trace.store(0);
    }
  } else {
    // ---- Consumers: warpgroup c computes rows [64c, 64c + 64) of every tile (cooperative),
    // or every other unit whole (ping-pong). ----
    setmaxnreg_inc<kColSplit ? kConsumerRegsColSplit : kConsumerRegs<kNumConsumers>>();
    // After thread 0's wait (the CTA barrier orders it), so already satisfied: kept so that no
    // consumer's global access (alpha_ptr, C, bias, the workspace, D) depends on that ordering.
    griddep_wait();
    trace.mark<2>();
    const int consumer = warpgroup - 1;
    const int lane = static_cast<int>(threadIdx.x) % 32;
    const int tid = static_cast<int>(threadIdx.x) - kThreadsPerWarpgroup * warpgroup;
    const float alpha = p.alpha_ptr != nullptr ? *p.alpha_ptr : p.alpha;
    const float beta = p.beta_ptr != nullptr ? *p.beta_ptr : p.beta;
    const unsigned a_base = smem_addr(&smem.a[0][0]) +
                            (kPingPong || kColSplit ? 0u : TileA::row_offset(consumer * 64));
    const unsigned b_base =
        smem_addr(&smem.b[0][0]) + (kColSplit ? TileB::row_offset(consumer * kSubN) : 0u);
    // The epilogue path, the same for every tile of the launch. beta is known only here (it may
    // be a device scalar): the host marks D as TMA-storable, beta = 0 decides.
    // beta != 0 takes it when C can be loaded by TMA: not in split-K clusters (the finisher's
    // epilogue has no mainloop of its own to load C during), nor where the staging is in the
    // ring (C would land in stages the mainloop still reads).
    // Nor into a row-major D's 8-column slabs (store.cuh: those reads are not built).
    constexpr bool kSlabs8 = StoreShape::kStoreCols<BLOCK_N> == 8;
    const bool load_c = kCanTmaStore && !kSplitCluster && !kRingEpilogue && !kColSplit &&
                        !kWidePingPong &&
                        beta != 0.f &&
                        (p.flags & SM90_FLAG_C_TMA) != 0 &&
                        !(kSlabs8 && (p.flags & SM90_FLAG_D_ROW_MAJOR) != 0);
    const bool tma_store = !kForceDownLanes && kCanTmaStore &&
                           (p.flags & SM90_FLAG_TMA_STORE) != 0 && (beta == 0.f || load_c);
    const unsigned c_bars = smem_addr(&smem.c_full[consumer * StoreShape::kBuffers]);
    const bool plain =
        beta == 0.f && (p.flags & SM90_FLAG_BIAS) == 0 && p.activation == SM90_ACT_NONE;
    // Each warpgroup's TMA-store staging and general staging start at the same place (a
    // Stream-K launch uses both), kEpilogueStride bytes per warpgroup.
    using EpiSmem = EpilogueSmem<OutT, kNumConsumers, kCanTmaStore>;
    unsigned char* const epilogue_base =
        kRingEpilogue ? reinterpret_cast<unsigned char*>(&smem.a[0][0]) : &smem.epilogue[0];
    const unsigned staging = smem_addr(epilogue_base) + consumer * EpiSmem::kStride;
    float* const staged = reinterpret_cast<float*>(epilogue_base + consumer * EpiSmem::kStride);
    // This warpgroup's fp32 copy of its tile's bias along n (TmaBiasCol; unused elsewhere).
    float* const bias_n = reinterpret_cast<float*>(&smem.epilogue[Storage::kBiasOffset] +
                                                   consumer * BiasCol::kStride);
    constexpr long long kSlotFloats = 64LL * BLOCK_N;  // one warpgroup's partial tile
    unsigned boxes = 0;  // TMA-store boxes this warpgroup has written (picks the staging buffer)
    if (tma_store && tid == 0) {
      tma_prefetch_descriptor(&tmap_d);
      if (load_c || (p.flags & SM90_FLAG_D_BOXES) != 0) {
        tma_prefetch_descriptor(&tmap_c);  // C's map, or D's whole-box map
      }
    }

    float acc[kBlocks][kAccRegs];
#pragma unroll
    for (int b = 0; b < kBlocks; ++b) {
#pragma unroll
      for (int r = 0; r < kAccRegs; ++r) {
        acc[b][r] = 0.f;
      }
    }
    // wgmma's register fences over every accumulator.
    const auto fence_acc = [&]() {
#pragma unroll
      for (int b = 0; b < kBlocks; ++b) {
#pragma unroll
        for (int r = 0; r < kAccRegs; ++r) {
          wgmma_fence_operand(acc[b][r]);
        }
      }
    };
    // Releases a stage: this warp's arrival on its own empty barrier and, with multicast, on
    // those of the CTAs whose loads write into it (its tile column's, for B, and its tile
    // row's, for A). The ranks and the peers' addresses are recomputed each time (a
    // special-register read and a mapa): kept live across the mainloop they made ptxas spill
    // at BLOCK_N = 256.
    const auto release = [&](int stage) {
      pipe.consumer_release(stage);
      if constexpr (kMulticast) {
        const unsigned rank = cluster_ctarank();
        if constexpr (kClusterM > 1) {
          mbarrier_arrive_cluster(map_shared_rank(pipe.empty(stage), rank ^ 1u));
        }
        // The other CTAs of this tile row: ranks kClusterM apart (kClusterN a power of 2, so
        // rank ^ (kClusterM * j), j = 1 .. kClusterN - 1, visits each once).
#pragma unroll
        for (unsigned j = 1; j < static_cast<unsigned>(kClusterN); ++j) {
          mbarrier_arrive_cluster(map_shared_rank(pipe.empty(stage), rank ^ (kClusterM * j)));
        }
      }
    };
    PipelineState<kNumStages> state;
    WorkSchedule work = make_schedule();
    WorkUnit unit;
    // Ping-pong: the CTA's units so far (even ones are consumer 0's), and this consumer's
    // mainloops so far. Consumer 1's r-th mainloop waits for phase r of turn[1] (consumer 0's
    // r-th mainloop issued), consumer 0's r-th for phase r - 1 of turn[0] (r >= 1).
    int unit_index = 0;
    int rounds = 0;
    int traced_units = 0;  // DG_TRACE marks the first unit's phases
    unsigned split_rounds = 0;  // split-K clusters: tiles handed over so far (barrier parity)
#pragma unroll 1
    while (work.next(unit)) {
      split_k_range(unit);
      if (++traced_units == 2) {
        trace.mark<5>();  // the first unit's epilogue is done
      }
      if constexpr (kPingPong) {
        if ((unit_index++ & 1) != consumer) {
          state.advance_by(unit.k_end - unit.k_begin);  // the other consumer's stages
          continue;
        }
        const int waits = rounds - (consumer == 0 ? 1 : 0);
        if (waits >= 0) {
          mbarrier_wait_parity(smem_addr(&smem.turn[consumer]), static_cast<unsigned>(waits) & 1u);
        }
        ++rounds;
      }
      const TileCoord tile = sched.coord(unit.tile);
      if constexpr (!kSplitCluster) {
        if (!kTall && !kColSplit && unit.k_begin > 0 && unit.k_end == num_k_iters) {
          streamk_prefetch_partials(p, num_k_iters, unit, consumer, tid, kSlotFloats, sk_slots());
        }
        // The tile's epilogue runs after this unit (the last of its k-range) and reads C:
        // bring this warpgroup's block of C into L2 while the mainloop runs (a data-parallel
        // tile on the TMA-store epilogue loads it by TMA instead, below).
        if (beta != 0.f && unit.k_end == num_k_iters && !(load_c && unit.k_begin == 0)) {
          const int rows0 = inside(tile_row(tile) * BLOCK_M, BLOCK_M, p.m);
          const int cols0 = inside(tile_col(tile) * BLOCK_N, BLOCK_N, p.n, kStepN);
#pragma unroll
          for (int b = 0; b < kBlocks; ++b) {
            prefetch_c_block<OutT, kSubN>(
                p, tid, rows0 + (kPingPong || kColSplit ? 64 * b : consumer * 64),
                cols0 + (kColSplit ? consumer * kSubN : 0), tile.batch);
          }
        }
      }
      if constexpr (BiasCol::kAny) {
        // This tile's bias along n into L1, for the epilogue to stage (store.cuh
        // `stage_bias_cols`) with its latency hidden under the mainloop: up to 960 bytes, so
        // at most 9 lines of 128 bytes, one a thread of the first warp.
        if (tma_store && (p.flags & SM90_FLAG_BIAS_COL) != 0 && (p.flags & SM90_FLAG_BIAS) != 0 &&
            unit.k_end == num_k_iters && tid < 9) {
          const long long bytes = (p.flags & SM90_FLAG_BIAS_F32) != 0 ? 4 : 2;
          const long long col0 = inside(tile_col(tile) * BLOCK_N, BLOCK_N, p.n);
          const long long cols = p.n - col0 < BLOCK_N ? p.n - col0 : BLOCK_N;
          const char* first =
              static_cast<const char*>(p.bias) + (tile.batch * p.bias_bs + col0) * bytes;
          const char* line = first - (reinterpret_cast<unsigned long long>(first) & 127ull) +
                             128 * tid;
          if (line < first + cols * bytes) {
            prefetch_l1(line);  // holds some of the tile's bias: inside the allocation's pages
          }
        }
      }
      // A data-parallel tile's first boxes of C by TMA into the staging (one thread), before
      // its mainloop. (A Stream-K owner's tile reads C in the general epilogue: with both the
      // partials and C in the TMA-store epilogue ptxas spilled at BLOCK_N = 256.)
      if constexpr (kCanTmaStore && !kSplitCluster && !kRingEpilogue && !kColSplit &&
                    !kWidePingPong) {
        if (tma_store && load_c && unit.k_begin == 0 && unit.k_end == num_k_iters && tid == 0) {
          const int c_row_lo = tile_row(tile) * BLOCK_M;
          const int c_col_lo = tile_col(tile) * BLOCK_N;
          const long long c_row = inside(c_row_lo, BLOCK_M, p.m) + (kPingPong ? 0 : consumer * 64);
          epilogue_c_first<BLOCK_N>(tmap_c, p, staging, c_bars, boxes, c_row, c_row_lo,
                                    inside(c_col_lo, BLOCK_N, p.n), c_col_lo, tile.batch);
        }
      }
      // With k = 0 the accumulators keep the zeros they started with. (No zeroing branch per
      // tile: a second definition of the accumulators makes ptxas spill at BLOCK_N = 256.)
      if (num_k_iters > 0) {
        // kRegA (tf32 with an MN-major A): A from registers. The fragments of a k-step are
        // loaded after its stage is full and must stay untouched until its wgmmas complete, so
        // each k-step waits for its own batch (no batch overlap across k-steps) and then
        // releases its own stage.
        static_assert(!kRegA || (TileA::kMnPerLine == 32 && TileA::kChunkBytes == BLOCK_K * 128),
                      "load_a_fragment_tf32_mn reads 32-row chunks of BLOCK_K 128-byte lines");
        int previous_stage = 0;
#pragma unroll 1
        for (int k_iter = unit.k_begin; k_iter < unit.k_end; ++k_iter) {
          pipe.consumer_wait(state);
          if (traced_units == 1 && k_iter == unit.k_begin) {
            trace.mark<3>();
          }
          unsigned a_frag[kRegA ? BLOCK_K / kMmaK : 1][4];
          if constexpr (kRegA) {
            const unsigned a_stage = a_base + state.stage * kStageBytesA;
#pragma unroll
            for (int kk = 0; kk < BLOCK_K / kMmaK; ++kk) {
              load_a_fragment_tf32_mn<BLOCK_K>(a_stage, kk, tid / 32, lane, a_frag[kk]);
            }
          }
          fence_acc();
          wgmma_fence();
#pragma unroll
          for (int kk = 0; kk < BLOCK_K / kMmaK; ++kk) {
            if constexpr (kRegA) {
              WgmmaRsTf32<BLOCK_N>::mma(acc[0], a_frag[kk],
                                        TileB::desc(b_base + state.stage * kStageBytesB, kk),
                                        (k_iter > unit.k_begin || kk > 0) ? 1 : 0);
            } else {
#pragma unroll
              for (int b = 0; b < kBlocks; ++b) {
                Mma::mma(acc[b],
                         TileA::desc(a_base + state.stage * kStageBytesA + TileA::row_offset(64 * b),
                                     kk),
                         TileB::desc(b_base + state.stage * kStageBytesB, kk),
                         (k_iter > unit.k_begin || kk > 0) ? 1 : 0);
              }
            }
          }
          wgmma_commit_group();
          fence_acc();
          if constexpr (kRegA) {
            wgmma_wait_group<0>();
            fence_acc();
            if (lane == 0) {
              release(state.stage);
            }
          } else {
            // Keep this k-step's wgmmas in flight while releasing the previous step's stage:
            // once at most one batch is pending, the batch that read `previous_stage` has
            // completed.
            wgmma_wait_group<1>();
            if (k_iter > unit.k_begin && lane == 0) {
              release(previous_stage);
            }
            previous_stage = state.stage;
          }
          state.advance();
        }
        if constexpr (kPingPong) {
          // Every full barrier of this unit is passed: the other consumer may start (its
          // stages' previous phases are complete), while this one drains.
          mbarrier_arrive(smem_addr(&smem.turn[1 - consumer]));
        }
        if constexpr (!kRegA) {
          wgmma_wait_group<0>();
          fence_acc();
          if (lane == 0) {
            release(previous_stage);
          }
        }
      }
      if (traced_units == 1) {
        trace.mark<4>();
      }
      if constexpr (kRingEpilogue) {
        // Every consumer's wgmma reads of the ring are done (each waited for its last batch)
        // before any writes its staging there: the named barrier after the consumers' own
        // (1 + consumer), all the consumer threads.
        named_barrier_sync(1 + kNumConsumers, kNumConsumers * kThreadsPerWarpgroup);
      }
      // The producer is already filling the freed stages with the next tile meanwhile.
      const int barrier_id = 1 + consumer;
      // The rows and columns this tile owns start at (row_lo, col_lo); its accumulators at
      // (row_base, col_base), before them where its boxes were moved inside (`inside`).
      const int row_lo = tile_row(tile) * BLOCK_M;
      const int col_lo = tile_col(tile) * BLOCK_N;
      const int row0 = inside(row_lo, BLOCK_M, p.m);
      const int col0 = inside(col_lo, BLOCK_N, p.n, kStepN);
      // (A column-split consumer's first block; its block b starts 64 b rows further.)
      const long long row_base = row0 + (kPingPong || kColSplit ? 0 : consumer * 64);
      const long long col_base = col0 + (kColSplit ? consumer * kSubN : 0);
      // Named barriers 1 to kNumConsumers (barrier_id): one per consumer warpgroup (0 is
      // __syncthreads).
      // Each path is instantiated for the flags it branches on, so no tile runs code for what
      // it lacks.
      // The data-parallel epilogue of `x`, the 64 rows from `rows`: the accumulators, or a
      // split-K cluster's sum.
      const auto epilogue = [&](const float (&x)[kAccRegs], long long rows) {
        if constexpr (kCanTmaStore) {
          if (tma_store) {
            epilogue_tma_store_for<OutT, false, kTmaBiasCol, kWideBiasCol>(
                x, staging, bias_n, barrier_id, tid, tmap_d, p, alpha, rows, col_base, row_lo,
                col_lo, tile.batch, boxes, Fixup{}, load_c, tmap_c, c_bars, beta);
            return;
          }
        }
        if (plain) {
          epilogue_staged<OutT, true, false>(x, staged, barrier_id, tid, p, alpha, beta,
                                             rows, col_base, row_lo, col_lo, tile.batch,
                                             Fixup{});
        } else {
          epilogue_staged<OutT, false, false>(x, staged, barrier_id, tid, p, alpha, beta,
                                              rows, col_base, row_lo, col_lo, tile.batch,
                                              Fixup{});
        }
      };
      if constexpr (kSplitCluster) {
        // Consumer c's rows are finished by CTA c (see the top): every other CTA's consumer c
        // stores its partial into a slot of CTA c's landing buffer and goes on to its next
        // tile.
        constexpr unsigned kSlot = SplitLanding<BLOCK_N, kSplitK>::kStride;
        const unsigned rank = cluster_ctarank();
        const unsigned finisher = static_cast<unsigned>(consumer);
        const unsigned landing = smem_addr(&smem.epilogue[0]) + EpiSmem::kBytes;
        const unsigned landed = smem_addr(&smem.turn[2]);
        const unsigned read = smem_addr(&smem.turn[4 + consumer]);
        const unsigned parity = split_rounds++ & 1u;
        await_peer();
        if (finisher != rank) {
          // The finisher's slot is free once it has read the previous tile's partial (the wait
          // for the phase before the first completes at once).
          mbarrier_wait_parity_acquire_cluster(read, parity ^ 1u);
          const unsigned slot = rank < finisher ? rank : rank - 1;
          const unsigned dst = map_shared_rank(landing + slot * kSlot, finisher);
#pragma unroll
          for (int j = 0; j < kAccRegs / 4; ++j) {
            st_shared_cluster_f32x4(dst + (j * 128 + tid) * 16, acc[0][4 * j], acc[0][4 * j + 1],
                                    acc[0][4 * j + 2], acc[0][4 * j + 3]);
          }
          mbarrier_arrive_release_cluster(map_shared_rank(landed, finisher));
          continue;
        }
        // The sum goes to registers of its own (an instruction that defines the accumulators
        // outside wgmma makes ptxas serialise the wgmmas, C7515), in rank order: the same
        // bits whichever CTA finished its share first.
        mbarrier_wait_parity_acquire_cluster(landed, parity);
        float sum[kAccRegs];
#pragma unroll
        for (int j = 0; j < kAccRegs / 4; ++j) {
#pragma unroll
          for (int r = 0; r < kSplitK; ++r) {
            float x[4];
            if (r == static_cast<int>(finisher)) {
              x[0] = acc[0][4 * j];
              x[1] = acc[0][4 * j + 1];
              x[2] = acc[0][4 * j + 2];
              x[3] = acc[0][4 * j + 3];
            } else {
              const int slot = r < static_cast<int>(finisher) ? r : r - 1;
              ld_shared_f32x4(landing + slot * kSlot + (j * 128 + tid) * 16, x[0], x[1], x[2],
                              x[3]);
            }
#pragma unroll
            for (int e = 0; e < 4; ++e) {
              sum[4 * j + e] = r == 0 ? x[e] : sum[4 * j + e] + x[e];
            }
          }
        }
        // Each sender's slot is read: it may store the next tile's partial.
#pragma unroll
        for (int r = 0; r < kSplitK; ++r) {
          if (r != static_cast<int>(finisher)) {
            mbarrier_arrive_release_cluster(map_shared_rank(read, static_cast<unsigned>(r)));
          }
        }
        epilogue(sum, row_base);
        continue;
      }
      if (!kSplitCluster && !kTall && !kColSplit && !kWidePingPong &&
          (unit.k_begin > 0 || unit.k_end < num_k_iters)) {
        // A tile shared with other CTAs (Stream-K; never a tall tile's, see kTall).
        const StreamKSlots sl = sk_slots();
        const int slot = sl.slot(sl.self);
        if (unit.k_end < num_k_iters) {
          // A later CTA finishes this tile: hand the partial over (straight from the
          // registers) and raise the flag.
          epilogue_store_partial(acc[0], tid,
                                 StreamKWorkspace::partial(p.workspace, p.sk_ctas * kClusterSize,
                                                           slot, consumer, kSlotFloats));
          trace.mark<8>();
          named_barrier_sync(barrier_id, 128);
          if (tid == 0) {
            st_release_gpu(StreamKWorkspace::flag(p.workspace, slot, consumer), p.epoch);
          }
          trace.mark<9>();
        } else {
          // This CTA ends the tile; the CTAs before it computed the rest.
          const Fixup fixup = streamk_wait_partials(p, num_k_iters, unit, consumer, barrier_id,
                                                    tid, kSlotFloats, sl);
          trace.mark<10>();
          bool stored = false;
          if constexpr (kCanTmaStore) {
            // The partials join the accumulators on their way to the TMA stores.
            if (tma_store && !load_c) {
              epilogue_tma_store_for<OutT, true, kTmaBiasCol>(
                  acc[0], staging, bias_n, barrier_id, tid, tmap_d, p, alpha, row_base, col_base,
                  row_lo, col_lo, tile.batch, boxes, fixup, false, tmap_c, c_bars, beta);
              stored = true;
            }
          }
          if (!stored) {
            if constexpr (kCanTmaStore) {
              // The general staging is the TMA stores' (beta != 0 with C through TMA in the
              // launch's other tiles): their reads are done before it is written (the
              // epilogue's first barrier orders the other threads after this one).
              if (tma_store && tid == 0) {
                tma_store_wait_read<0>();
              }
            }
            epilogue_staged<OutT, false, true>(acc[0], staged, barrier_id, tid, p, alpha, beta,
                                               row_base, col_base, row_lo, col_lo, tile.batch,
                                               fixup);
          }
          if constexpr (kCanTmaStore) {
            // The staging's next use may be a TMA load of C (async proxy): order this
            // epilogue's accesses before it (the barrier below, then the issuing thread).
            if (load_c) {
              fence_view_async_shared();
            }
          }
          trace.mark<11>();
        }
        // Needed: the owner's general epilogue ends reading the staging with no barrier after
        // its last round, and the next tile's first C load by TMA (thread 0,
        // `epilogue_c_first`) writes those bytes: this barrier (after the fence above) orders
        // the reads before it. (It also keeps ptxas from spilling at BLOCK_N = 256, session 10;
        // a review in session 52 found the comment here calling it removable.)
        named_barrier_sync(barrier_id, 128);
        continue;
      }
      // A column-split consumer's blocks one after another, each named (a loop over acc[b]
      // that ptxas did not unroll put the accumulators on the stack and serialised the
      // wgmmas). A block past m or wholly the tile before's has nothing to store (uniform in
      // the warpgroup, so no named barrier is skipped alone).
      static_assert(kBlocks == 1 || kBlocks == 2 || kBlocks == 3,
                    "one block, a wide ping-pong's two, or a column split's three");
      const auto block_epilogue = [&](const float (&x)[kAccRegs], long long rows) {
        if (kBlocks == 1 || (rows < p.m && rows >= row_lo)) {
          epilogue(x, rows);
        }
      };
      block_epilogue(acc[0], row_base);
      if constexpr (kBlocks == 2) {
        block_epilogue(acc[kBlocks == 2 ? 1 : 0], row_base + 64);
      }
      if constexpr (kBlocks == 3) {
        block_epilogue(acc[kBlocks == 3 ? 1 : 0], row_base + 64);
        block_epilogue(acc[kBlocks == 3 ? 2 : 0], row_base + 128);
      }
    }
    if (traced_units == 1) {
      trace.mark<5>();
    }
    trace.mark<6>();
    // The CTA's shared memory must outlive the stores that read it; the global writes are
    // complete when the kernel is, so only the reads are waited for (as CUTLASS's epilogue
    // tail): waiting for the writes kept each CTA resident for their round trip.
    if constexpr (kCanTmaStore) {
      if (tma_store && tid == 0) {
        tma_store_wait_read<0>();
      }
    }
    trace.mark<7>();
    if (tid == 0) {
      trace.span_end();
      if (consumer == 0) {
        trace.store(1);
      }
    }
  }
  // No CTA of a cluster may exit while a peer can still arrive on its barriers or multicast
  // or store into its shared memory.
  if constexpr (kClustered) {
    await_peer();
    cluster_sync();
  }
}

}  // namespace dg_sm90
