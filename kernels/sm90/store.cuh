// The TMA-store epilogue, for the common case: D of a 16-bit type that TMA can address (16-byte
// aligned, 16-byte multiple strides, column- or row-major) and beta = 0 (C is not read).
//
// D = act(alpha * acc + bias[row]) is computed in registers, packed to 16-bit pairs, written by
// stmatrix into a small staging buffer in shared memory, and handed to one TMA store per
// 64 x 64 box. The consumers then go on to the next tile's mainloop while the stores drain: the
// wgmma of tile t + 1 overlaps the global writes of tile t. The old path kept both consumer
// warpgroups off the tensor cores for ~17k cycles a tile (~2,300 SASS instructions, two named
// barriers per 32 columns, scalar STS and global stores of every element).
//
// Staging (per consumer warpgroup): kBuffers boxes of 64 rows x 64 columns, each 8 KiB, i.e.
// 64 lines of 128 bytes (64 values) written with the 128-byte swizzle that D's tensor map
// declares (the 16-byte unit u of line l sits at unit u ^ (l % 8); buffers start on the
// 1024-byte swizzle period). A line is one column of the box for column-major D (stmatrix
// .trans: the fragment's rows, 8 consecutive rows of D, become 16 contiguous bytes) and one row
// for row-major D (plain stmatrix). Either way the 8 lines of one 8x8 matrix land on 8 distinct
// 16-byte units, so stmatrix is free of bank conflicts.
//
// Buffer reuse: box j goes to buffer j % 2. Before box j is written, the issuing thread waits
// until box j - 2's store has read that buffer (wait_group.read 1: box j - 1's store may still be
// reading the other one), and a barrier tells the warpgroup; a second barrier publishes the
// written box. Two barriers per box, eight per 128 x 256 tile and warpgroup. (One barrier per
// box, with the wait for box j - 1's read before it, made every box wait for the store issued
// just before it: ~700 cycles a box, ~2,900 per 128 x 256 tile on the H200.)
//
// m and n edges need no predication: TMA does not write the parts of a box outside D's extents
// (the tensor map's dimensions are m, n and the batch count, not the leading dimensions), and
// boxes that start past the edge are skipped.
#pragma once

#include "ptx/barrier.cuh"
#include "ptx/fence.cuh"
#include "ptx/ldmatrix.cuh"
#include "ptx/mbarrier.cuh"
#include "ptx/tma.cuh"
#include "ptx/stmatrix.cuh"
#include "ptx/tma_store.cuh"
#include "sm90/epilogue.cuh"
#include "sm90/trace.cuh"
#include "sm90/types.cuh"

namespace dg_sm90 {

struct StoreShape {
  static constexpr int kBox = 64;                              // rows and columns of a box
  static constexpr int kBuffers = 2;                           // per consumer warpgroup
  static constexpr unsigned kLineBytes = 128;                  // 64 16-bit values
  static constexpr unsigned kBufferBytes = kBox * kLineBytes;  // 8 KiB
  static constexpr unsigned kBytes = kBuffers * kBufferBytes;  // per consumer warpgroup
  // Columns per TMA store for a tile kBlockN wide (src/plan/sm90.rs `store_box_cols`).
  template <int kBlockN>
  static constexpr int kStoreCols = kBlockN % kBox == 0 ? kBox : kBlockN % 16 == 0 ? 16 : 8;
  // Columns per TMA load of C into a row-major D's staging (load_c_box): D's slab, or a whole
  // box where D has no 8-column slabs to load into (gemm.cuh `load_c` never loads those).
  template <int kStoreCols>
  static constexpr int kRowCLoadCols = kStoreCols == 8 ? kBox : kStoreCols;
};
static_assert(StoreShape::kBufferBytes % 1024 == 0, "each buffer keeps the swizzle period");

// C through TMA (SM90_FLAG_C_TMA: beta != 0 and C in D's layout, which TMA can address). C's
// boxes are loaded by TMA into the staging buffers that D's boxes are then stored from, each
// signalling one of the warpgroup's two mbarriers (`c_bars`, one per buffer); the epilogue
// reads a box's C with ldmatrix at the very addresses its stmatrix then writes D to, so C
// arrives in the accumulators' fragment with no shuffle, and D leaves by the TMA store as with
// beta = 0. The first two boxes are loaded during the tile's mainloop (epilogue_c_first), the
// rest asked of L2 then and loaded into a buffer as soon as its store has read it. The general
// epilogue this replaces read C a round at a time between barriers (beta = 1 ran 0.71x
// cuBLASLt with bf16 D, session 30).

// The boxes of a warpgroup's 64 x kBlockN block that its epilogue stores: [first, last); none
// when its rows are past the edge or the tile before's (epilogue_tma_store skips the same).
struct StoredBoxes {
  int first;
  int last;
};
template <int kBlockN>
__device__ __forceinline__ StoredBoxes stored_boxes(const Sm90Params& p, long long row_base,
                                                    int row_lo, long long col_base, int col_lo) {
  constexpr int kBox = StoreShape::kBox;
  constexpr int kBoxes = (kBlockN + kBox - 1) / kBox;
  if (row_base >= p.m || row_base < row_lo || col_base >= p.n) {
    return {0, 0};
  }
  const int first = col_lo > col_base ? static_cast<int>((col_lo - col_base + kBox - 1) / kBox) : 0;
  const long long left = p.n - col_base;
  const int end = left >= kBlockN ? kBoxes : static_cast<int>((left + kBox - 1) / kBox);
  return {first, end};
}

// Loads box `box` of C into the staging buffer `buf`, signalling `bar`; one thread. C's map
// has whole 64 x 64 boxes where the buffer's lines are 64 values (column-major D at any width,
// where D's stores may go 16 or 8 columns at a time; row-major D in whole boxes), and D's slab
// box for a row-major D in slabs: then one load a slab, into the slab D's store reads. Columns
// past the tile's width are loaded and not used; past C's edge TMA fills zeros, so every load
// delivers its whole box (the expected bytes).
template <int kStoreCols>
__device__ __forceinline__ void load_c_box(const TmaDescriptor& tmap_c, const Sm90Params& p,
                                           unsigned buf, unsigned bar, long long row_base,
                                           long long col_base, int box, long long batch) {
  using S = StoreShape;
  const int rc = static_cast<int>(row_base);
  const int cc = static_cast<int>(col_base + box * S::kBox);
  const int bc = static_cast<int>(batch);
  mbarrier_arrive_expect_tx(bar, S::kBufferBytes);
  if ((p.flags & SM90_FLAG_D_ROW_MAJOR) != 0) {
    constexpr int kLoadCols = S::kRowCLoadCols<kStoreCols>;
#pragma unroll
    for (int c = 0; c < S::kBox / kLoadCols; ++c) {
      tma_load_3d(buf + c * kLoadCols * S::kLineBytes, &tmap_c, bar, cc + c * kLoadCols, rc, bc);
    }
  } else {
    tma_load_3d(buf, &tmap_c, bar, rc, cc, bc);
  }
}

// During the mainloop of a tile whose epilogue reads C by TMA (one thread of the warpgroup;
// `boxes` as epilogue_tma_store's, before this tile's): waits until the staging buffers'
// last stores have read them, loads the first two boxes the epilogue stores into the buffers
// they will be stored from, and asks L2 for the rest.
template <int kBlockN>
__device__ __forceinline__ void epilogue_c_first(const TmaDescriptor& tmap_c, const Sm90Params& p,
                                                 unsigned staging, unsigned c_bars,
                                                 unsigned boxes, long long row_base, int row_lo,
                                                 long long col_base, int col_lo,
                                                 long long batch) {
  using S = StoreShape;
  constexpr int kBoxes = (kBlockN + S::kBox - 1) / S::kBox;
  const StoredBoxes sb = stored_boxes<kBlockN>(p, row_base, row_lo, col_base, col_lo);
  if (sb.first >= sb.last) {
    return;
  }
  tma_store_wait_read<0>();
  const bool row_major = (p.flags & SM90_FLAG_D_ROW_MAJOR) != 0;
#pragma unroll
  for (int box = 0; box < kBoxes; ++box) {
    if (box < sb.first || box >= sb.last) {
      continue;
    }
    const int i = box - sb.first;
    if (i < S::kBuffers) {
      const unsigned b = (boxes + static_cast<unsigned>(i)) % S::kBuffers;
      load_c_box<S::kStoreCols<kBlockN>>(tmap_c, p, staging + b * S::kBufferBytes,
                                          c_bars + 8u * b, row_base, col_base, box, batch);
    } else {
      const int rc = static_cast<int>(row_base);
      const int cc = static_cast<int>(col_base + box * S::kBox);
      if (row_major) {
        constexpr int kLoadCols = S::kRowCLoadCols<S::kStoreCols<kBlockN>>;  // as load_c_box
#pragma unroll
        for (int c = 0; c < S::kBox / kLoadCols; ++c) {
          tma_prefetch_3d(&tmap_c, cc + c * kLoadCols, rc, static_cast<int>(batch));
        }
      } else {
        tma_prefetch_3d(&tmap_c, rc, cc, static_cast<int>(batch));
      }
    }
  }
}

// A bias along n for a warpgroup's block of kBlockN columns from `col_base`: staged as fp32
// in `bias_n` (kBlockN floats of shared memory, gemm.cuh `TmaBiasCol`), -0 past n, so the
// epilogue reads a fragment group's values with one shared load instead of asking L1 or L2 for
// each (those loads, one exposed latency per 16 columns, cost ~20 us a launch at
// 14336x1024x4096 on 128 x 224 tiles, session 35). The tile's lines were asked of L1 when its
// mainloop started. The warpgroup's earlier reads of `bias_n` (the tile before's) are behind
// the barrier that ended its last box; this one orders the stores before the reads.
template <typename OutT, int kBlockN>
__device__ __forceinline__ void stage_bias_cols(float* bias_n, int barrier_id, int tid,
                                                const Sm90Params& p, long long col_base,
                                                long long batch) {
  const bool bias_f32 = (p.flags & SM90_FLAG_BIAS_F32) != 0;
  // A compile-time trip count: a loop over `tid` (divergent) made ptxas keep the persistent
  // loop's pipeline state in vector registers, the mainloop's too, in every instantiation.
#pragma unroll
  for (int j = 0; j < (kBlockN + 127) / 128; ++j) {
    const int c = tid + 128 * j;
    const long long col = col_base + c;
    if (c < kBlockN) {
      float v = -0.f;
      if (col < p.n) {
        const long long at = batch * p.bias_bs + col;
        v = bias_f32 ? static_cast<const float*>(p.bias)[at]
                     : to_f32(static_cast<const OutT*>(p.bias)[at]);
      }
      bias_n[c] = v;
    }
  }
  named_barrier_sync(barrier_id, 128);
}

// Writes one consumer warpgroup's 64 x N accumulator tile through TMA stores. `staging` is the
// .shared address of the warpgroup's StoreShape::kBytes (1024-byte aligned), `tid` the thread's
// index in the warpgroup, `barrier_id` the warpgroup's named barrier, `row_base` its first row
// and `col_base` the tile's first column; rows before `row_lo` and columns before `col_lo` are
// the tile before's (a tile moved back from the edge, gemm.cuh `inside`: whole warpgroups and
// boxes) and are not stored. `boxes` counts the boxes this warpgroup has stored
// (the same in every thread; it picks the buffer and carries over from tile to tile). Thread 0
// of the warpgroup issues the stores; it must wait for their reads (tma_store_wait_read)
// before exiting.
//
// Fragment (PTX ISA "wgmma .m64nNk16 register fragment layout for accumulator matrix D"): warp w
// holds rows 16w..16w+15, and in lane l acc[4t + 2h + e] is row 16w + l/4 + 8h, column
// 8t + 2(l%4) + e. So (acc[4t + 2h], acc[4t + 2h + 1]) packed is exactly lane l's register of the
// 8x8 matrix (rows 16w + 8h.., columns 8t..) in stmatrix's fragment, and one stmatrix.x4 takes
// the matrices (t, h) = (2k, 0), (2k, 1), (2k + 1, 0), (2k + 1, 1) of a box: eight consecutive
// accumulators. Each thread's two rows are fixed, so the bias costs two loads per tile.
//
// kFixup: a Stream-K owner's tile; `fixup`'s partials are added to the accumulators, 16 of a
// thread's registers (two stmatrix.x4) at a time: one exposed L2 latency per 32 columns and
// batch of contributors (the owner asked L2 for them at the start of its mainloop,
// streamk_prefetch_partials). The staged path it replaces took ~35k cycles for a 128 x 240
// tile, ~2k a 16-column round (DG_TRACE on the H200, session 13).
//
// kLoadC (beta != 0, SM90_FLAG_C_TMA): D = act(alpha * acc + beta * C + bias), C's boxes read
// from the staging buffers TMA loaded them into (see epilogue_c_first, which the caller ran
// during the mainloop with the same `boxes`); `tmap_c` and `c_bars` as there.
template <typename OutT, int kAct, bool kFixup = false, bool kLoadC = false,
          bool kBiasColOk = false, int kAccRegs>
__device__ __forceinline__ void epilogue_tma_store(const float (&acc)[kAccRegs], unsigned staging,
                                                   float* bias_n, int barrier_id, int tid,
                                                   const TmaDescriptor& tmap_d,
                                                   const Sm90Params& p, float alpha,
                                                   long long row_base, long long col_base,
                                                   int row_lo, int col_lo, long long batch,
                                                   unsigned& boxes, const Fixup& fixup,
                                                   const TmaDescriptor& tmap_c, unsigned c_bars,
                                                   float beta) {
  using S = StoreShape;
  constexpr int kBlockN = kAccRegs * 2;
  constexpr int kBoxesPerTile = (kBlockN + S::kBox - 1) / S::kBox;
  constexpr int kGroupsPerBox = S::kBox / 8;  // 8-column fragment groups
  // Columns per TMA store: whole boxes, or for widths that end in a partial box (176 = 64 + 64
  // + 48) 16 at a time from every box, through a D map whose box is 64 x 16 (16 lines of the
  // buffer, 2 KiB: the swizzle period is kept); 8 at a time (1 KiB, still the period) for the
  // widths 8 past a multiple of 16 (168 = 64 + 64 + 40). A column-major D takes those narrow
  // stores only where C's map is loaded (SM90_FLAG_C_TMA); otherwise every box goes in one
  // store (`col_boxes` below). A row-major box's line is a row of D,
  // so there the buffer is cut into slabs of kStoreCols columns instead, one per store: 64 rows
  // of 32 bytes in the 32-byte swizzle (16 columns) or of 16 bytes unswizzled (8 columns),
  // which keeps stmatrix free of bank conflicts either way (the 8 rows of a matrix fill one
  // 128-byte span). In 16-column slabs without C, only the last, partial box is cut so: the
  // whole ones go through D's whole-box map (SM90_FLAG_D_BOXES; all in slabs, a 128 x 224 tile
  // took 14 stores a warpgroup where it now takes 5). C's map has the slab box (load_c_box);
  // not into 8-column slabs (with their reads the 248-wide tile spilled: the host gives those
  // launches no C map).
  constexpr int kStoreCols = S::kStoreCols<kBlockN>;
  static_assert(sizeof(OutT) == 2, "stmatrix stores 16-bit elements");
  static_assert(kBlockN % 8 == 0, "whole 8-column fragment groups per tile");
  static_assert(kGroupsPerBox == 8, "four stmatrix.x4 of two 8-column groups per box");

  if (row_base >= p.m || row_base < row_lo) {
    // This warpgroup's rows are all past the edge, or the tile before's (uniform: no barrier
    // is skipped alone).
    return;
  }
  const int warp = tid / 32;
  const int lane = tid % 32;
  const bool row_major = (p.flags & SM90_FLAG_D_ROW_MAJOR) != 0;
  const bool bias_f32 = (p.flags & SM90_FLAG_BIAS_F32) != 0;
  // A bias along n (a swapped problem): a value per column, staged as fp32 in this
  // warpgroup's `bias_n` (stage_bias_cols) and read back a fragment group at a time below.
  // kBiasColOk: built with it (gemm.cuh `TmaBiasCol`).
  const bool bias_col = kBiasColOk && (p.flags & (SM90_FLAG_BIAS | SM90_FLAG_BIAS_COL)) ==
                                          (SM90_FLAG_BIAS | SM90_FLAG_BIAS_COL);
  if (bias_col) {
    stage_bias_cols<OutT, kBlockN>(bias_n, barrier_id, tid, p, col_base, batch);
  }

  // Adding -0 leaves every value as it is, the sign of a zero included, so "no bias" needs no
  // second code path: alpha * acc + (-0) is one FFMA rounding to alpha * acc.
  float bias[2] = {-0.f, -0.f};
  if ((p.flags & SM90_FLAG_BIAS) != 0 && !bias_col) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const long long row = row_base + 16 * warp + lane / 4 + 8 * h;
      if (row < p.m) {
        const long long at = batch * p.bias_bs + row;
        bias[h] = bias_f32 ? static_cast<const float*>(p.bias)[at]
                           : to_f32(static_cast<const OutT*>(p.bias)[at]);
      }
    }
  }

  // The shared address lane l gives for stmatrix.x4 number k of a box: row j = l % 8 of matrix
  // i = l / 8, i.e. (t, h) = (2k + i / 2, i % 2).
  const unsigned matrix = static_cast<unsigned>(lane) / 8;
  const unsigned j = static_cast<unsigned>(lane) % 8;
  const unsigned h = matrix & 1u;
  const unsigned t_odd = matrix >> 1;
  // Column-major: line = column 8t + j of the box, unit = row group 2w + h.
  const unsigned col_major_addr = 1024u * t_odd + 128u * j + 16u * ((2u * warp + h) ^ j);
  // Row-major: line = row 16w + 8h + j of the box, unit = column group t (XOR per k below).
  const unsigned row_major_line = S::kLineBytes * (16u * warp + 8u * h + j);
  // Row-major slabs (kStoreCols < kBox): 16 columns, the k-th slab's line of 32 bytes, unit
  // t_odd swizzled by line bit 2 (bits 4 and 7 of the offset: the 32-byte swizzle); 8 columns,
  // slab 2k + t_odd's unswizzled 16-byte line.
  const unsigned slab_line = 16u * warp + 8u * h + j;
  const unsigned slab16_addr = 32u * slab_line + 16u * (t_odd ^ (j >> 2));
  const unsigned slab8_addr = 1024u * t_odd + 16u * slab_line;
  const int batch_coord = static_cast<int>(batch);
  const int row_coord = static_cast<int>(row_base);
  const int last_box = kLoadC ? stored_boxes<kBlockN>(p, row_base, row_lo, col_base, col_lo).last : 0;
  // A row-major D in 16-column slabs stores its whole boxes through D's whole-box map
  // (SM90_FLAG_D_BOXES, in tmap_c's slot), as a tile of whole boxes does. Not when C is
  // loaded: C's map holds the slot, and C's slabs land where D's slabs are stored from. Not
  // in 8-column slabs, which are not planned for a row-major D (`row_slabs_of_8`; with it the
  // 232-wide ring-epilogue tiles spilled).
  const bool whole_boxes = !kLoadC && kStoreCols == 16 && row_major &&
                           (p.flags & SM90_FLAG_D_BOXES) != 0;
  // A column-major D at a width that is not whole boxes, without C by TMA: each box in one
  // store, the whole ones through D's whole-box map (SM90_FLAG_D_BOXES, tmap_c's slot), the
  // last, partial one through D's map, whose box is then that box's width. A TMA store costs
  // its issuing thread ~110-130 cycles, so the 8-column stores of every box (31 a warpgroup
  // at 128 x 248) were most of the epilogue's ~3.5-4.9k cycles (DG_TRACE, session 38).
  const bool col_boxes = !kLoadC && kStoreCols < S::kBox && !row_major &&
                         (p.flags & SM90_FLAG_D_BOXES) != 0;
  EpiTrace<kBoxesPerTile> trace;  // DG_TRACE only (sm90/trace.cuh)
  trace.begin(boxes == 0);

#pragma unroll
  for (int box = 0; box < kBoxesPerTile; ++box) {
    const long long col0 = col_base + box * S::kBox;
    if (col0 >= p.n) {
      break;  // uniform: the rest of the tile is past the edge
    }
    if (col0 < col_lo) {
      continue;  // the tile before's columns (uniform)
    }
    const unsigned buf_index = boxes % S::kBuffers;
    const unsigned buf = staging + buf_index * S::kBufferBytes;
    // This box's columns: 64, or what is left of the tile (a multiple of 8).
    const int box_cols = kBlockN - box * S::kBox < S::kBox ? kBlockN - box * S::kBox : S::kBox;
    // Staged and stored as a whole 64 x 64 box (the 128-byte swizzle's lines) rather than in
    // slabs (compile-time but for the flag).
    const bool whole = whole_boxes && box_cols == S::kBox;
    if constexpr (kLoadC) {
      // C's box has landed in the buffer, which its last store had read before the load.
      mbarrier_wait_parity(c_bars + 8u * buf_index, (boxes / S::kBuffers) & 1u);
    } else {
      if (tid == 0) {
        tma_store_wait_read<1>();  // box - 2's store has read this buffer
      }
      named_barrier_sync(barrier_id, 128);
    }
    trace.mark(1 + 3 * box);
    constexpr int kPartRegs = 16;
    float part[kFixup ? kPartRegs : 1];
#pragma unroll
    for (int k = 0; k < kGroupsPerBox / 2; ++k) {
      if (16 * k >= box_cols) {
        break;  // compile-time after unrolling
      }
      // The tile's last 8 columns when its width is 8 past a multiple of 16: matrices
      // (t, h) = (2k, 0), (2k, 1) only, one stmatrix.x2 (compile-time after unrolling).
      const bool half = 16 * k + 8 == box_cols;
      // The partials' sums of registers [part_first, part_first + 16): this k and the next.
      const int part_first = 4 * (box * kGroupsPerBox + 2 * (k & ~1));
      if constexpr (kFixup) {
        if (k % 2 == 0) {
          sum_partials<kAccRegs>(fixup, tid, part_first, part);
        }
      }
      // C's values at these positions: ldmatrix at stmatrix's addresses below.
      unsigned cr[4] = {0u, 0u, 0u, 0u};
      if constexpr (kLoadC) {
        // At the addresses the stmatrix below writes to (load_c_box put C there).
        if (row_major && kStoreCols == S::kBox) {
          ldmatrix_x4(buf + row_major_line + 16u * ((2u * k + t_odd) ^ j), cr);
        } else if (row_major && kStoreCols == 16) {
          ldmatrix_x4(buf + 2048u * k + slab16_addr, cr);
        } else if (half) {  // never a row-major D in 8-column slabs (gemm.cuh `load_c`)
          ldmatrix_x2_trans(buf + col_major_addr + 2048u * k, cr[0], cr[1]);
        } else {
          ldmatrix_x4_trans(buf + col_major_addr + 2048u * k, cr);
        }
      }
      // A bias along n: fragment group 2k + u's two columns, 2(l % 4) and + 1 (lanes with
      // the same l % 4 read one address: 32 bytes a warp, no bank conflict).
      float bias_cols[2][2] = {{-0.f, -0.f}, {-0.f, -0.f}};
      if (bias_col) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
          if (!(u == 1 && half)) {
            const float2 v = *reinterpret_cast<const float2*>(
                bias_n + box * S::kBox + 16 * k + 8 * u + 2 * (lane % 4));
            bias_cols[u][0] = v.x;
            bias_cols[u][1] = v.y;
          }
        }
      }
      unsigned r[4] = {0u, 0u, 0u, 0u};
#pragma unroll
      for (int i = 0; i < (half ? 2 : 4); ++i) {
        const int t = box * kGroupsPerBox + 2 * k + i / 2;
        const int a = 4 * t + 2 * (i % 2);
        float x0 = acc[a];
        float x1 = acc[a + 1];
        if constexpr (kFixup) {
          x0 += part[a - part_first];
          x1 += part[a + 1 - part_first];
        }
        float add0 = bias[i % 2];
        float add1 = bias[i % 2];
        if (bias_col) {
          add0 = bias_cols[i / 2][0];
          add1 = bias_cols[i / 2][1];
        }
        if constexpr (kLoadC) {
          float c0, c1;
          Unpack2<OutT>::convert(cr[i], c0, c1);
          add0 = fmaf(beta, c0, add0);
          add1 = fmaf(beta, c1, add1);
        }
        const float lo = activate_16bit<kAct>(fmaf(alpha, x0, add0));
        const float hi = activate_16bit<kAct>(fmaf(alpha, x1, add1));
        r[i] = Pack2<OutT>::convert(lo, hi);
      }
      if (row_major && (kStoreCols == S::kBox || whole)) {
        stmatrix_x4(buf + row_major_line + 16u * ((2u * k + t_odd) ^ j), r);
      } else if (row_major && kStoreCols == 16) {
        stmatrix_x4(buf + 2048u * k + slab16_addr, r);
      } else if (row_major && half) {
        stmatrix_x2(buf + 2048u * k + slab8_addr, r[0], r[1]);
      } else if (row_major) {
        stmatrix_x4(buf + 2048u * k + slab8_addr, r);
      } else if (half) {
        stmatrix_x2_trans(buf + col_major_addr + 2048u * k, r[0], r[1]);
      } else {
        stmatrix_x4_trans(buf + col_major_addr + 2048u * k, r);
      }
    }
    // Every writer orders its stmatrix before the TMA engine's (async proxy) reads.
    fence_view_async_shared();
    trace.mark(2 + 3 * box);
    named_barrier_sync(barrier_id, 128);
    if (tid == 0) {
      const int col_coord = static_cast<int>(col0);
      if constexpr (kStoreCols == S::kBox) {
        if (row_major) {
          tma_store_3d(&tmap_d, buf, col_coord, row_coord, batch_coord);
        } else {
          tma_store_3d(&tmap_d, buf, row_coord, col_coord, batch_coord);
        }
      } else if (whole) {
        tma_store_3d(&tmap_c, buf, col_coord, row_coord, batch_coord);  // D's whole-box map
      } else if (col_boxes) {
        // Lines are columns, so a box of box_cols columns is its first box_cols lines.
        tma_store_3d(box_cols == S::kBox ? &tmap_c : &tmap_d, buf, row_coord, col_coord,
                     batch_coord);
      } else {
        // Column-major lines are columns: 16 (8) of them are 2 KiB (1 KiB) of the buffer; a
        // row-major slab is as large. Stores that start past n write nothing (TMA clips to
        // D's extents).
#pragma unroll
        for (int c = 0; c < S::kBox / kStoreCols; ++c) {
          if (c * kStoreCols < box_cols) {
            const unsigned src = buf + c * kStoreCols * S::kLineBytes;
            if (row_major) {
              tma_store_3d(&tmap_d, src, col_coord + c * kStoreCols, row_coord, batch_coord);
            } else {
              tma_store_3d(&tmap_d, src, row_coord, col_coord + c * kStoreCols, batch_coord);
            }
          }
        }
      }
      tma_store_commit();
      if constexpr (kLoadC) {
        // Box + 2's C goes into this buffer once this store has read it, while the
        // warpgroup goes on with box + 1, whose C is already in the other buffer.
        if (box + S::kBuffers < last_box) {
          tma_store_wait_read<0>();
          load_c_box<kStoreCols>(tmap_c, p, buf, c_bars + 8u * buf_index, row_base, col_base,
                                 box + S::kBuffers, batch);
        }
      }
    }
    trace.mark(3 + 3 * box);
    ++boxes;
  }
  trace.store(tid);
}

// epilogue_tma_store instantiated for the launch's activation (`p.activation`, the same for
// every tile) and for whether it reads C (`load_c`: beta != 0 through SM90_FLAG_C_TMA), so
// each tile runs the code of its own epilogue only.
//
// kWideBiasCol (the tiles over 64 wide that add a bias along n, gemm.cuh `TmaBiasCol`):
// launches with one take instantiations built with it; the others keep the code built
// without. (A Stream-K owner's is not built: those tiles run data-parallel only,
// src/plan/streamk.rs `decompositions_with`.)
template <typename OutT, bool kFixup = false, bool kBiasColOk = false, bool kWideBiasCol = false,
          int kAccRegs>
__device__ __forceinline__ void epilogue_tma_store_for(const float (&acc)[kAccRegs],
                                                       unsigned staging, float* bias_n,
                                                       int barrier_id, int tid,
                                                       const TmaDescriptor& tmap_d,
                                                       const Sm90Params& p, float alpha,
                                                       long long row_base, long long col_base,
                                                       int row_lo, int col_lo, long long batch,
                                                       unsigned& boxes, const Fixup& fixup,
                                                       bool load_c, const TmaDescriptor& tmap_c,
                                                       unsigned c_bars, float beta) {
#define DG_TMA_STORE_CALL(ACT, LOADC, BIASCOL)                                                 \
  epilogue_tma_store<OutT, ACT, kFixup, LOADC, BIASCOL>(                                      \
      acc, staging, bias_n, barrier_id, tid, tmap_d, p, alpha, row_base, col_base, row_lo,     \
      col_lo, batch, boxes, fixup, tmap_c, c_bars, beta)
#define DG_TMA_STORE_ACT(LOADC, BIASCOL)            \
  if (p.activation == SM90_ACT_RELU) {              \
    DG_TMA_STORE_CALL(SM90_ACT_RELU, LOADC, BIASCOL); \
  } else if (p.activation == SM90_ACT_GELU) {       \
    DG_TMA_STORE_CALL(SM90_ACT_GELU, LOADC, BIASCOL); \
  } else {                                          \
    DG_TMA_STORE_CALL(SM90_ACT_NONE, LOADC, BIASCOL); \
  }
  if constexpr (kWideBiasCol && !kFixup) {
    if ((p.flags & (SM90_FLAG_BIAS | SM90_FLAG_BIAS_COL)) ==
        (SM90_FLAG_BIAS | SM90_FLAG_BIAS_COL)) {
      if (load_c) {
        DG_TMA_STORE_ACT(true, true)
      } else {
        DG_TMA_STORE_ACT(false, true)
      }
      return;
    }
  }
  if (load_c) {
    DG_TMA_STORE_ACT(true, kBiasColOk)
  } else {
    DG_TMA_STORE_ACT(false, kBiasColOk)
  }
#undef DG_TMA_STORE_ACT
#undef DG_TMA_STORE_CALL
}

}  // namespace dg_sm90
