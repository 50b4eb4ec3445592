// The general fused epilogue: D = act(alpha * acc + beta * C + bias[row]), any D type and
// strides. (The common case, 16-bit D that TMA can address and beta = 0, takes the TMA-store
// epilogue in sm90/store.cuh instead.)
//
// The accumulators go through shared memory, transposed, so that each thread then owns 8
// consecutive rows of one column: with column-major C and D (unit stride along m, the cuBLAS
// default) every global access is 16 bytes per thread (two for fp32) and 8 lanes cover 64
// contiguous rows. Other strides take the same path with element-wise accesses.
#pragma once

#include "ptx/barrier.cuh"
#include "ptx/global_sync.cuh"
#include "ptx/mufu.cuh"
#include "ptx/smem.cuh"
#include "ptx/special.cuh"
#include "sm90/types.cuh"

namespace dg_sm90 {

// The tanh approximation, which is what cuBLASLt's GELU epilogues compute:
//   0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3),
// rewritten with 1 + tanh(u) = 2 / (1 + exp(-2u)) as x / (1 + exp(-2u)): one ex2.approx and one
// fast division instead of tanhf's ~20 instructions (tanhf cost ~3 us per 128 x 256 tile on the
// H200). Relative error a few fp32 ulps; x -> -inf gives -0 (exp overflows to inf), x -> +inf
// gives x, NaN stays NaN. x is clamped below at -16 (the result there is already -0): -inf
// itself gave -inf / inf = NaN before (a session-52 review; the TMA-store form clamps too).
__device__ __forceinline__ float gelu_tanh(float x) {
  const float kMinusTwoSqrt2OverPi = -1.5957691216057308f;
  const float kCoeff = 0.044715f;
  x = fmax_nan(x, -16.f);
  const float u = x * fmaf(kCoeff * x, x, 1.f);
  return __fdividef(x, 1.f + __expf(kMinusTwoSqrt2OverPi * u));
}

// GELU for 16-bit outputs (the TMA-store epilogue): 0.5 x (1 + tanh(u)) with one tanh.approx
// (relative error <= 2^-11, below a bf16 or fp16 rounding of the result's scale) instead of
// gelu_tanh's ex2 and reciprocal, and in 6 FP32 operations: u = x (c0 + c1 x^2) in three,
// 0.5 x (1 + tanh(u)) in three, and x clamped below at -16 (where tanh(u) is -1 and the result
// 0) keeping a NaN (max.NaN), so that -inf needs no select of its own (inf * 0 would be NaN; it
// now gives +0, gelu_tanh -0). The form x (0.5 + 0.5 tanh(u)), one operation fewer, made ptxas
// spill 16 bytes in the 128x256 16-bit kernels. GELU's cost is mostly FP32 work, not the
// special-function unit: session 50 measured the 8-operation form at 3.3% of 4096x14336x4096
// with a bias and 13.9% of 8192x8192x1024 over the plain GEMM; the tanh replaced by an FP32 min
// took 21-26% of that off, the 5-operation form 6-18% (`50e`), this one `50f`.
__device__ __forceinline__ float gelu_tanh_16bit(float x) {
  const float kC0 = 0.7978845608028654f;              // sqrt(2 / pi)
  const float kC1 = 0.7978845608028654f * 0.044715f;  // sqrt(2 / pi) * 0.044715
  const float xc = fmax_nan(x, -16.f);
  const float u = xc * fmaf(kC1, xc * xc, kC0);
  const float h = 0.5f * xc;
  return fmaf(h, tanh_approx(u), h);
}

// The activation known at compile time (the TMA-store epilogue is instantiated per activation).
template <int kAct>
__device__ __forceinline__ float activate(float x) {
  if constexpr (kAct == SM90_ACT_RELU) {
    return x < 0.f ? 0.f : x;  // a NaN stays NaN, as torch.relu (fmaxf would return 0)
  } else if constexpr (kAct == SM90_ACT_GELU) {
    return gelu_tanh(x);
  } else {
    return x;
  }
}

// The same for a 16-bit D (only GELU differs: gelu_tanh_16bit).
template <int kAct>
__device__ __forceinline__ float activate_16bit(float x) {
  if constexpr (kAct == SM90_ACT_GELU) {
    return gelu_tanh_16bit(x);
  } else {
    return activate<kAct>(x);
  }
}

__device__ __forceinline__ float activate(float x, int activation) {
  if (activation == SM90_ACT_RELU) {
    return activate<SM90_ACT_RELU>(x);
  }
  if (activation == SM90_ACT_GELU) {
    return activate<SM90_ACT_GELU>(x);
  }
  return x;
}

// 16-byte vectors for the wide accesses.
struct alignas(16) U32x4 {
  unsigned x, y, z, w;
};
struct alignas(16) F32x4 {
  float x, y, z, w;
};

// The staging buffer of one consumer warpgroup: a round covers kCols columns of its 64 rows,
// stored column by column (rows contiguous) as fp32. With the 4-float pad per column (a column
// starts 4 banks after the previous one) the 8 rows x 4 columns a warp writes per instruction
// fall on 32 distinct banks, and so do the 16-byte reads of a quarter-warp that takes 4 row
// groups of 2 adjacent columns (see `staged_item`).
struct StagedShape {
  static constexpr int kCols = 32;
  static constexpr int kRows = 64;
  static constexpr int kColStride = kRows + 4;  // floats
  static constexpr int kFloats = kCols * kColStride;
};

// The rounds of a 64 x kBlockN tile: 32 columns each, or 16 for widths that are not whole
// 32-column rounds (176, ...) and the n16 tiles of small-n problems, or 8 for the widths 8
// past a multiple of 16 (168, ...). Each round is kItems (column, 8-row group) items,
// kItems / 128 per thread; an 8-column round has 64, one for each thread of warps 0 and 1
// (kPerThread = 1, the items of warps 2 and 3 fall past the round's columns).
template <int kBlockN>
struct Rounds {
  static constexpr int kCols = kBlockN % StagedShape::kCols == 0 ? StagedShape::kCols
                               : kBlockN % 16 == 0                 ? 16
                                                                   : 8;
  static constexpr int kCount = kBlockN / kCols;
  static constexpr int kItems = kCols * (StagedShape::kRows / 8);
  static constexpr int kPerThread = kItems >= 128 ? kItems / 128 : 1;
  static_assert(kBlockN % kCols == 0, "whole rounds");
  static_assert(kItems % 128 == 0 || kItems == 64, "every thread takes the same number of items");
  static_assert(kPerThread * 4 * 4 == (kCols < 16 ? 16 : kCols),
                "staged_item: 4 columns per warp and item");
};

__device__ __forceinline__ bool aligned16(const void* ptr) {
  return (reinterpret_cast<unsigned long long>(ptr) & 15u) == 0;
}

// Elements src[0], src[stride], ... src[7 * stride] (the first `rows` of them; the rest read as
// 0): one 16-byte load (two for fp32) when `vector` (stride 1, all 8 inside, aligned).
template <typename OutT>
__device__ __forceinline__ void load8(const OutT* src, long long stride, int rows, bool vector,
                                      float (&v)[8]) {
  if (vector) {
    if constexpr (sizeof(OutT) == 2) {
      const U32x4 q = *reinterpret_cast<const U32x4*>(src);
      const unsigned w[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        v[2 * i] = to_f32(OutT{static_cast<unsigned short>(w[i] & 0xFFFFu)});
        v[2 * i + 1] = to_f32(OutT{static_cast<unsigned short>(w[i] >> 16)});
      }
    } else {
      const F32x4 lo = reinterpret_cast<const F32x4*>(src)[0];
      const F32x4 hi = reinterpret_cast<const F32x4*>(src)[1];
      v[0] = lo.x, v[1] = lo.y, v[2] = lo.z, v[3] = lo.w;
      v[4] = hi.x, v[5] = hi.y, v[6] = hi.z, v[7] = hi.w;
    }
  } else {
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      v[i] = i < rows ? to_f32(src[i * stride]) : 0.f;
    }
  }
}

// load8 kept as the elements' bits (4 words for 16-bit types, 8 for fp32: half load8's
// registers for 16-bit C while they wait), unpacked by unpack8.
template <typename OutT>
struct Raw8 {
  unsigned w[sizeof(OutT) * 2];
};
template <typename OutT>
__device__ __forceinline__ void load8_raw(const OutT* src, long long stride, int rows, bool vector,
                                          Raw8<OutT>& r) {
  if (vector) {
#pragma unroll
    for (int h = 0; h < static_cast<int>(sizeof(OutT)) / 2; ++h) {
      const U32x4 q = reinterpret_cast<const U32x4*>(src)[h];
      r.w[4 * h] = q.x, r.w[4 * h + 1] = q.y, r.w[4 * h + 2] = q.z, r.w[4 * h + 3] = q.w;
    }
  } else {
    const unsigned short* s16 = reinterpret_cast<const unsigned short*>(src);
    const unsigned* s32 = reinterpret_cast<const unsigned*>(src);
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      if constexpr (sizeof(OutT) == 2) {
        const unsigned bits = i < rows ? s16[i * stride] : 0u;
        r.w[i / 2] = (i % 2 == 0) ? bits : (r.w[i / 2] | (bits << 16));
      } else {
        r.w[i] = i < rows ? s32[i * stride] : 0u;
      }
    }
  }
}
template <typename OutT>
__device__ __forceinline__ void unpack8(const Raw8<OutT>& r, float (&v)[8]) {
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    if constexpr (sizeof(OutT) == 2) {
      v[i] = to_f32(OutT{static_cast<unsigned short>(i % 2 == 0 ? r.w[i / 2] & 0xFFFFu
                                                                 : r.w[i / 2] >> 16)});
    } else {
      v[i] = __uint_as_float(r.w[i]);
    }
  }
}

// The store counterpart of load8 (only the first `rows` elements are written).
template <typename OutT>
__device__ __forceinline__ void store8(OutT* dst, long long stride, int rows, bool vector,
                                       const float (&v)[8]) {
  if (vector) {
    if constexpr (sizeof(OutT) == 2) {
      unsigned w[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        w[i] = static_cast<unsigned>(FromF32<OutT>::convert(v[2 * i]).bits) |
               (static_cast<unsigned>(FromF32<OutT>::convert(v[2 * i + 1]).bits) << 16);
      }
      *reinterpret_cast<U32x4*>(dst) = U32x4{w[0], w[1], w[2], w[3]};
    } else {
      reinterpret_cast<F32x4*>(dst)[0] = F32x4{v[0], v[1], v[2], v[3]};
      reinterpret_cast<F32x4*>(dst)[1] = F32x4{v[4], v[5], v[6], v[7]};
    }
  } else {
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      if (i < rows) {
        dst[i * stride] = FromF32<OutT>::convert(v[i]);
      }
    }
  }
}

// Item j of thread `tid` in a round: (column in the round, 8-row group). Each warp takes 4
// columns x 8 groups. A 16-byte shared load is served a quarter-warp (8 lanes) at a time, so the
// lanes of a quarter take 2 adjacent columns x 4 groups: the 8 addresses are then 16 bytes each
// on 8 distinct 4-bank sets (column c starts at bank 4c mod 32, group g at 8g). One column x 8
// groups per quarter, the first layout, put groups g and g + 4 on the same banks: the 2-way
// conflict ncu measured on these loads.
struct StagedItem {
  int col;
  int group;
};
__device__ __forceinline__ StagedItem staged_item(int tid, int j) {
  const int warp = tid / 32;
  const int lane = tid % 32;
  const int block = warp + 4 * j;  // 4 columns per warp and item
  return StagedItem{4 * block + 2 * ((lane >> 3) & 1) + ((lane >> 2) & 1),
                    4 * (lane >> 4) + (lane & 3)};
}

// Step (1) of a round of the staged epilogue: after a barrier (the previous round's readers
// are done), the round's 32 columns of the fragment go to the buffer, transposed; a second
// barrier publishes them. kAdd: 0 the accumulators alone; 1 plus `add`, which holds a value
// per accumulator register; 2 plus `add`, which holds this round's registers only (a Stream-K
// owner's sum of its contributors' partials, `sum_partials`).
template <int kAdd, int kAccRegs, int kAddRegs>
__device__ __forceinline__ void stage_round(const float (&acc)[kAccRegs], const float (&add)[kAddRegs],
                                            float* buf, int barrier_id, int tid, int round) {
  using S = StagedShape;
  using R = Rounds<kAccRegs * 2>;
  constexpr int kRounds = R::kCount;
  constexpr int kGroupsPerRound = R::kCols / 8;  // 8-column fragment groups (t)
  constexpr int kRoundRegs = 4 * kGroupsPerRound;
  static_assert(kAdd == 0 || kAddRegs == (kAdd == 1 ? kAccRegs : kRoundRegs), "addend size");
  const int warp = tid / 32;
  const int lane = tid % 32;
  named_barrier_sync(barrier_id, 128);
#pragma unroll
  for (int r = 0; r < kRounds; ++r) {
    if (r == round) {
#pragma unroll
      for (int tt = 0; tt < kGroupsPerRound; ++tt) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
#pragma unroll
          for (int e = 0; e < 2; ++e) {
            const int col = 8 * tt + 2 * (lane % 4) + e;
            const int row = 16 * warp + lane / 4 + 8 * h;
            const int reg = 4 * (r * kGroupsPerRound + tt) + 2 * h + e;
            float v = acc[reg];
            if constexpr (kAdd == 1) {
              v += add[reg];
            } else if constexpr (kAdd == 2) {
              v += add[reg - r * kRoundRegs];
            }
            buf[col * S::kColStride + row] = v;
          }
        }
      }
    }
  }
  named_barrier_sync(barrier_id, 128);
}

// The Stream-K partials an owner adds in `epilogue_staged<..., kFixup = true>`: `count` slots
// `slot_stride` floats apart from `slot0`, each a 64 x N partial tile as
// `epilogue_store_partial` wrote it.
struct Fixup {
  const float* slot0;
  long long slot_stride;
  int count;
};

// A partial is the warpgroup's accumulator registers as they are (the owner's fragment layout
// is the same): float4 q of thread tid at floats (q * 128 + tid) * 4, so each 16-byte store or
// load instruction of a warp covers 512 contiguous bytes.
__device__ __forceinline__ long long partial_offset(int q, int tid) {
  return (static_cast<long long>(q) * 128 + tid) * 4;
}

// Stream-K contributor: writes the warpgroup's raw 64 x N accumulators (no alpha, nothing
// else) to `slot`, straight from the registers (no staging: it cost the contributor two
// barriers and a shared-memory round trip before its flag). The caller raises the slot's flag
// after a barrier.
template <int kAccRegs>
__device__ __forceinline__ void epilogue_store_partial(const float (&acc)[kAccRegs], int tid,
                                                       float* slot) {
#pragma unroll
  for (int q = 0; q < kAccRegs / 4; ++q) {
    st_cg_f32x4(slot + partial_offset(q, tid), acc[4 * q], acc[4 * q + 1], acc[4 * q + 2],
                acc[4 * q + 3]);
  }
}

// A Stream-K owner's sum of its contributors' partials for its accumulator registers
// [first, first + kCount), in CTA order (deterministic); registers past kAccRegs (the last
// 16 of a 176-wide tile's 48-column box) read as 0. Every load of a batch of contributors
// is issued before any is used: one exposed L2 latency per batch.
template <int kAccRegs, int kCount>
__device__ __forceinline__ void sum_partials(const Fixup& fixup, int tid, int first,
                                             float (&out)[kCount]) {
  static_assert(kCount % 4 == 0, "whole float4s");
  // The temporaries of a batch sit next to the accumulators: 4 contributors at a time on the
  // narrow tiles, 2 where the accumulators take most registers.
  constexpr int kBatch = kAccRegs <= 32 && kCount <= 16 ? 4 : 2;
#pragma unroll
  for (int i = 0; i < kCount; ++i) {
    out[i] = 0.f;
  }
#pragma unroll 1
  for (int c0 = 0; c0 < fixup.count; c0 += kBatch) {
    float x[kBatch][kCount];
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      if (c0 + b < fixup.count) {
        const float* src = fixup.slot0 + (c0 + b) * fixup.slot_stride;
#pragma unroll
        for (int q = 0; q < kCount / 4; ++q) {
          if (first + 4 * q < kAccRegs) {
            ld_cg_f32x4(src + partial_offset(first / 4 + q, tid), x[b][4 * q], x[b][4 * q + 1],
                        x[b][4 * q + 2], x[b][4 * q + 3]);
          } else {
            x[b][4 * q] = x[b][4 * q + 1] = x[b][4 * q + 2] = x[b][4 * q + 3] = 0.f;
          }
        }
      } else {
#pragma unroll
        for (int i = 0; i < kCount; ++i) {
          x[b][i] = 0.f;
        }
      }
    }
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
#pragma unroll
      for (int i = 0; i < kCount; ++i) {
        out[i] += x[b][i];
      }
    }
  }
}

// At the start of a tile's mainloop, when its epilogue will read C (beta != 0): asks L2 for the
// warpgroup's 64 x kBlockN block of C. The staged epilogue reads C a round at a time between
// the rounds' barriers, so each round waited out a DRAM latency (fp32 D with beta = 1 ran 1.6x
// beta = 0's time; this took it 0.94x, bf16 D 0.88x, session 30). A run of C along its unit
// stride (a column when c_ms == 1, else a row when c_ns == 1) per thread, line by line; any
// other layout is left alone.
template <typename OutT, int kBlockN>
__device__ __forceinline__ void prefetch_c_block(const Sm90Params& p, int tid, long long row_base,
                                                 long long col_base, long long batch) {
  const long long rows_left = p.m - row_base;
  const long long cols_left = p.n - col_base;
  if (p.c == nullptr || rows_left <= 0 || cols_left <= 0) {
    return;
  }
  const int rows = rows_left < 64 ? static_cast<int>(rows_left) : 64;
  const int cols = cols_left < kBlockN ? static_cast<int>(cols_left) : kBlockN;
  const char* c = reinterpret_cast<const char*>(static_cast<const OutT*>(p.c) +
                                                batch * p.c_bs + row_base * p.c_ms +
                                                col_base * p.c_ns);
  const bool down = p.c_ms == 1;
  if (!down && p.c_ns != 1) {
    return;
  }
  const int runs = down ? cols : rows;
  const long long run_bytes = static_cast<long long>(down ? rows : cols) * sizeof(OutT);
  const long long run_stride = (down ? p.c_ns : p.c_ms) * static_cast<long long>(sizeof(OutT));
#pragma unroll 1
  for (int r = tid; r < runs; r += 128) {
    const unsigned long long first = reinterpret_cast<unsigned long long>(c + r * run_stride);
    const unsigned long long last = first + run_bytes - 1;
#pragma unroll 1
    for (unsigned long long line = first & ~127ull; line <= last; line += 128) {
      prefetch_l2(reinterpret_cast<const void*>(line));
    }
  }
}

// One round of the staged epilogue for column-major fp32 D (`epilogue_staged_rounds`, which
// says why): item i = tid + 128 j is column i / 16 of the round, rows 4 (i % 16) .. + 3 of the
// warpgroup's 64; 4 items a thread in a 32-column round, 2 in a 16-column one.
// Without C (beta = 0): its loop is not unrolled, so C's loads would wait one after another
// (beta = 1 ran 1.24x the 8-row items' time, session 30); those stay with the 8-row items.
template <bool kPlain, int kRoundCols, int kTileRegs>
__device__ __forceinline__ void staged_columns_f32(const float* buf, int tid, const Sm90Params& p,
                                                   float* d, float alpha, bool has_bias,
                                                   long long row_base,
                                                   long long round_col, int row_lo, int col_lo,
                                                   long long batch) {
  using S = StagedShape;
  constexpr int kGroups = S::kRows / 4;  // 4-row groups of a column
  constexpr int kPerThread = kRoundCols * kGroups / 128;
  static_assert(kPerThread * 128 == kRoundCols * kGroups, "every thread the same items");
  // Not unrolled: at 248 and 256 columns the unrolled items' addresses spilled.
#pragma unroll 1
  for (int j = 0; j < kPerThread; ++j) {
    const int item = tid + 128 * j;
    const int local_col = item / kGroups;
    const int group = item % kGroups;
    const long long col = round_col + local_col;
    const long long row = row_base + 4 * group;
    if (col >= p.n || row >= p.m || col < col_lo || row < row_lo) {
      continue;
    }
    const long long left = p.m - row;
    const int rows = left < 4 ? static_cast<int>(left) : 4;
    const F32x4 q = *reinterpret_cast<const F32x4*>(buf + local_col * S::kColStride + 4 * group);
    float v[4] = {alpha * q.x, alpha * q.y, alpha * q.z, alpha * q.w};
    if (has_bias) {
      // As the 8-row items: per row of D, or per column for a swapped problem (narrow tiles).
      constexpr bool kCanBiasCol = kTileRegs * 2 <= 64;
      const int step = kCanBiasCol && (p.flags & SM90_FLAG_BIAS_COL) != 0 ? 0 : 1;
      const long long at = batch * p.bias_bs + (step == 0 ? col : row);
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        if (i < rows) {
          // fp32 D: the bias is fp32 (the 8-row items read it as OutT either way).
          v[i] += static_cast<const float*>(p.bias)[at + i * step];
        }
      }
    }
    if (!kPlain) {
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        v[i] = activate(v[i], p.activation);
      }
    }
    float* dst = d + (row + col * p.d_ns);
    if (rows == 4) {
      *reinterpret_cast<F32x4*>(dst) = F32x4{v[0], v[1], v[2], v[3]};
    } else {
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        if (i < rows) {
          dst[i] = v[i];
        }
      }
    }
  }
}

// Writes one consumer warpgroup's 64 x N accumulator tile. `tid` is the thread's index in the
// warpgroup (0..127), `barrier_id` the warpgroup's named barrier, `buf` its staging buffer,
// `row_base` its first global row and `col_base` the tile's first column. Rows >= m and
// columns >= n (the tile's share of the matrix edge) are skipped, and so are rows < `row_lo`
// and columns < `col_lo` (the tile before's, in a tile moved back from the edge: gemm.cuh
// `inside`).
//
// Per round of 32 columns: (1) fragment -> buffer. Per PTX ISA "wgmma .m64nNk16 register
// fragment layout for accumulator matrix D", warp w holds rows 16w..16w+15 and in lane l
// acc[4t + 2h + e] is row 16w + l/4 + 8h, column 8t + 2(l%4) + e. (2) buffer -> global: item
// (column, 8-row group) goes to a thread by `staged_item`, two per thread and round.
//
// kPlain: beta = 0, no bias, no activation (D = alpha * acc), so none of that code is in the
// loop; the caller decides once per launch.
//
// Each element of C is read by the thread that writes the same element of D, so C may alias D.
//
// kFixup: a Stream-K owner's tile; `fixup`'s partials are added to the accumulators first
// (the accumulator registers themselves are never written outside wgmma: ptxas would
// serialise the wgmma pipeline, C7515).
// kTileRegs: the whole tile's registers (this call may take a part of them, `epilogue_staged`).
template <typename OutT, bool kPlain, bool kFixup, int kTileRegs, int kAccRegs>
__device__ __forceinline__ void epilogue_staged_rounds(const float (&acc)[kAccRegs], float* buf,
                                                       int barrier_id, int tid,
                                                       const Sm90Params& p, float alpha,
                                                       float beta, long long row_base,
                                                       long long col_base, int row_lo,
                                                       int col_lo, long long batch,
                                                       const Fixup& fixup) {
  using S = StagedShape;
  using R = Rounds<kAccRegs * 2>;
  constexpr int kRoundCols = R::kCols;
  constexpr int kRounds = R::kCount;
  constexpr int kItems = R::kItems;  // (column, 8-row group) pairs per round
  static_assert(kRounds * kItems * 8 == kAccRegs * 128, "a partial is the whole 64 x N tile");
  OutT* d = static_cast<OutT*>(p.d) + batch * p.d_bs;
  const OutT* c = static_cast<const OutT*>(p.c);  // may be null when beta == 0
  const bool has_bias = !kPlain && (p.flags & SM90_FLAG_BIAS) != 0;
  const bool bias_f32 = (p.flags & SM90_FLAG_BIAS_F32) != 0;
  const bool read_c = !kPlain && beta != 0.f;
  // Unit stride along m, but runs of 8 rows off the 16-byte grid (odd ld, or D's address):
  // the stores go down the columns instead (see the round loop).
  const bool down_lanes =
      p.d_ms == 1 && (kForceDownLanes || !aligned16(d) || (p.d_ns * sizeof(OutT)) % 16 != 0);

  // A runtime loop: only the register -> buffer copy needs compile-time accumulator indices
  // (selected below), so the epilogue arithmetic exists once instead of once per round.
  constexpr int kPerThread = R::kPerThread;
  // kFixup: the other CTAs' shares of this tile's k-loop, added to the accumulators on their
  // way into the buffer. Tiles up to 64 wide (at most two rounds) load every round's sums
  // before the first, one exposed L2 latency per batch of contributors for the whole tile; the
  // wider ones a round at a time, their accumulators leaving no registers for more.
  constexpr int kRoundRegs = kAccRegs / kRounds;
  constexpr bool kSumAll = kFixup && kAccRegs <= 32;
  float all[kSumAll ? kAccRegs : 4];
  if constexpr (kSumAll) {
    sum_partials<kAccRegs>(fixup, tid, 0, all);
  }
#pragma unroll 1
  for (int round = 0; round < kRounds; ++round) {
    // The round's C, loaded before its staging: the loads' latency (L2, prefetch_c_block)
    // then passes under the barriers and the buffer writes instead of after them, where each
    // round waited it out (beta = 1 cost 1.56-1.80x beta = 0's time with fp32 D, session 30).
    // Items as in the loop below; the odd-ld path (down_lanes) reads its own.
    // Not in 8-column rounds (the tail of an odd multiple of 8: 16-bit D spilled at 248), for
    // fp32 D on tiles wider than 224 (232 and 248 spilled, tf32 NN at 256 too), nor for 16-bit
    // D on 248-wide tiles (beside the TMA-store epilogue's C loads, 18 bytes spilled).
    constexpr bool kAhead = !kPlain && kRoundCols >= 16 &&
                            !(sizeof(OutT) == 4 && kTileRegs > 112) &&
                            !(sizeof(OutT) == 2 && kTileRegs == 124);
    Raw8<OutT> c_ahead[kPerThread];
    if (kAhead && read_c && !down_lanes) {
#pragma unroll
      for (int j = 0; j < kPerThread; ++j) {
        const StagedItem item = staged_item(tid, j);
        const long long col = col_base + round * kRoundCols + item.col;
        const long long row = row_base + 8 * item.group;
        const bool valid = !((kRoundCols < 16 && item.col >= kRoundCols) || col >= p.n ||
                             row >= p.m || col < col_lo || row < row_lo);
        const long long left = p.m - row;
        const int rows = !valid ? 0 : left < 8 ? static_cast<int>(left) : 8;
        const OutT* c_src = c + (batch * p.c_bs + row * p.c_ms + col * p.c_ns);
        load8_raw<OutT>(c_src, p.c_ms, rows, rows == 8 && p.c_ms == 1 && aligned16(c_src),
                        c_ahead[j]);
      }
    }
    if constexpr (kSumAll) {
      stage_round<1>(acc, all, buf, barrier_id, tid, round);
    } else if constexpr (kFixup) {
      float part[kRoundRegs];
      sum_partials<kAccRegs>(fixup, tid, round * kRoundRegs, part);
      stage_round<2>(acc, part, buf, barrier_id, tid, round);
    } else {
      stage_round<0>(acc, all, buf, barrier_id, tid, round);
    }
    if (down_lanes) {
      // Column-major D whose 8-row runs are not 16-byte aligned: each warp takes the round's
      // columns [warp, warp + 1) * kRoundCols / 4, its lanes rows lane and lane + 32, so
      // every store instruction writes 32 consecutive elements of one column (64 contiguous
      // bytes for 16-bit D). The item mapping below would make each instruction write one
      // element of each of 32 runs 16 bytes apart: 8 partial writes into every 32-byte
      // sector of D instead of one or two (PyTorch's logits at vocabulary 50257 ran 2.6x
      // the time of an aligned D, H200, session 8).
      constexpr int kColsPerWarp = kRoundCols / 4;
      const int lane = lane_id_volatile();  // ptx/special.cuh: not hoisted out of the tile loop
      const int warp = (tid - lane) / 32;
      const int first = round * kRoundCols + warp * kColsPerWarp;  // the warp's first column
      const long long cols_left = p.n - (col_base + first);
      const int cols = cols_left <= 0             ? 0
                       : cols_left < kColsPerWarp ? static_cast<int>(cols_left)
                                                  : kColsPerWarp;
      // The warp's columns before col_lo belong to the tile before (a moved tile).
      const long long skip = col_lo - (col_base + first);
      const long long row = row_base + lane;
      const bool row_ok[2] = {row < p.m && row >= row_lo, row + 32 < p.m && row + 32 >= row_lo};
      // The warp's values of the round, read from the buffer ahead of the stores (plain
      // loads were sunk to their column, after the previous column's stores: one exposed
      // shared-memory latency a column; ptxas still issues these one column ahead).
      const unsigned src = smem_addr(buf + warp * kColsPerWarp * S::kColStride + lane);
      float vals[kColsPerWarp][2];
#pragma unroll
      for (int cc = 0; cc < kColsPerWarp; ++cc) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          vals[cc][h] = __uint_as_float(ld_shared_u32(src + 4 * (cc * S::kColStride + 32 * h)));
        }
      }
      // One pointer walked along the columns and predicates fixed for the round: the per-
      // element 64-bit index arithmetic was ~2/3 of the loop's instructions. Worth ~1% only:
      // the stores' L2 write requests pace this loop, a 64-byte run off a 32-byte boundary
      // costing ~2 (BENCHMARKS.md, session 15).
      OutT* dst = d + row + (col_base + first) * p.d_ns;
#pragma unroll
      for (int cc = 0; cc < kColsPerWarp; ++cc) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          // Predicated, not branched around: a branch per column kept each column's buffer
          // loads inside it, after the previous column's stores.
          if (cc < cols && cc >= skip && row_ok[h]) {
            float v = alpha * vals[cc][h];
            if (read_c) {
              const long long col = col_base + first + cc;
              v += beta * to_f32(c[batch * p.c_bs + (row + 32 * h) * p.c_ms + col * p.c_ns]);
            }
            if (has_bias) {
              constexpr bool kCanBiasCol = kTileRegs * 2 <= 64;
              const bool along_n = kCanBiasCol && (p.flags & SM90_FLAG_BIAS_COL) != 0;
              const long long at =
                  batch * p.bias_bs + (along_n ? col_base + first + cc : row + 32 * h);
              v += bias_f32 ? static_cast<const float*>(p.bias)[at]
                            : to_f32(static_cast<const OutT*>(p.bias)[at]);
            }
            if (!kPlain) {
              v = activate(v, p.activation);
            }
            dst[32 * h] = FromF32<OutT>::convert(v);
          }
        }
        dst += p.d_ns;
      }
      continue;
    }
    if constexpr (sizeof(OutT) == 4 && kRoundCols >= 16) {
      if (p.d_ms == 1 && !read_c) {
        // Column-major fp32 D (16-byte aligned here: down_lanes took the rest) in items of 4
        // rows: lanes 0-15 of a warp take one column's 16 groups, lanes 16-31 the next, so a
        // store instruction writes four whole 128-byte lines and a quarter-warp's 16-byte
        // buffer loads are one contiguous 128 bytes (no bank conflict). The 8-row items
        // below wrote each 32-byte sector of fp32 D in two halves from two instructions:
        // twice the L2 write requests, which pace this loop. Not in 8-column rounds (the
        // tail of an odd multiple of 8, `epilogue_staged`): a second copy there made the
        // 248-wide fp32 kernels spill 64 bytes.
        staged_columns_f32<kPlain, kRoundCols, kTileRegs>(
            buf, tid, p, d, alpha, has_bias, row_base,
            col_base + round * kRoundCols, row_lo, col_lo, batch);
        continue;
      }
    }
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      const StagedItem item = staged_item(tid, j);
      const int local_col = item.col;
      const int group = item.group;
      const long long col = col_base + round * kRoundCols + local_col;
      const long long row = row_base + 8 * group;
      if ((kRoundCols < 16 && local_col >= kRoundCols) || col >= p.n || row >= p.m ||
          col < col_lo || row < row_lo) {
        continue;  // the first test only for 8-column rounds (warps 2 and 3 have no item)
      }
      const long long left = p.m - row;
      const int rows = left < 8 ? static_cast<int>(left) : 8;
      const float* src = buf + local_col * S::kColStride + 8 * group;
      const F32x4 lo = reinterpret_cast<const F32x4*>(src)[0];
      const F32x4 hi = reinterpret_cast<const F32x4*>(src)[1];
      float v[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
#pragma unroll
      for (int i = 0; i < 8; ++i) {
        v[i] *= alpha;
      }
      if (read_c) {
        float cv[8];
        if constexpr (kAhead) {
          unpack8<OutT>(c_ahead[j], cv);
        } else {
          const OutT* c_src = c + (batch * p.c_bs + row * p.c_ms + col * p.c_ns);
          load8<OutT>(c_src, p.c_ms, rows, rows == 8 && p.c_ms == 1 && aligned16(c_src), cv);
        }
#pragma unroll
        for (int i = 0; i < 8; ++i) {
          v[i] += beta * cv[i];
        }
      }
      if (has_bias) {
        // Per row of D, or per column for a swapped problem (D^T = B^T A^T computed; the
        // caller's rows are this kernel's columns). Tiles up to 64 wide only: at 256 the
        // select costs the registers that keep ptxas from spilling (the host never swaps a
        // biased problem onto wider tiles, Sm90Variant::check).
        constexpr bool kCanBiasCol = kTileRegs * 2 <= 64;
        const int step = kCanBiasCol && (p.flags & SM90_FLAG_BIAS_COL) != 0 ? 0 : 1;
        const long long at = batch * p.bias_bs + (step == 0 ? col : row);
#pragma unroll
        for (int i = 0; i < 8; ++i) {
          if (i < rows) {
            v[i] += bias_f32 ? static_cast<const float*>(p.bias)[at + i * step]
                             : to_f32(static_cast<const OutT*>(p.bias)[at + i * step]);
          }
        }
      }
      if (!kPlain) {
#pragma unroll
        for (int i = 0; i < 8; ++i) {
          v[i] = activate(v[i], p.activation);
        }
      }
      OutT* dst = d + (row * p.d_ms + col * p.d_ns);
      store8<OutT>(dst, p.d_ms, rows, rows == 8 && p.d_ms == 1 && aligned16(dst), v);
    }
  }
}

// epilogue_staged_rounds for the whole tile. A width that is a multiple of 16 goes in rounds of
// 32 or of 16 columns over the whole tile; an odd multiple of 8 takes its whole 32-column rounds
// first and then the rest in 8-column rounds (248 = 7 x 32 + 3 x 8: 10 rounds, where 8-column
// rounds over the whole tile took 31). Splitting a multiple of 16 as well (176 = 5 x 32 + 16: 6
// rounds, not 11) cost time: 1.05x on 128x112 and 1.01x on 144 / 176 / 208 with fp32 D
// (session 28, `28b`). The accumulators of columns [0, 32j)
// are registers [0, 16j) (8 columns a fragment group, 4 registers each), so each part is a
// sub-array with compile-time bounds, and a Stream-K partial's part starts 16j registers (4j
// float4s of every thread) into each slot.
template <typename OutT, bool kPlain, bool kFixup, int kAccRegs>
__device__ __forceinline__ void epilogue_staged(const float (&acc)[kAccRegs], float* buf,
                                                int barrier_id, int tid, const Sm90Params& p,
                                                float alpha, float beta, long long row_base,
                                                long long col_base, int row_lo, int col_lo,
                                                long long batch, const Fixup& fixup) {
  constexpr int kHeadRegs = kAccRegs / 16 * 16;  // whole 32-column rounds
  if constexpr (kHeadRegs == 0 || kHeadRegs == kAccRegs || kAccRegs % 8 == 0) {
    epilogue_staged_rounds<OutT, kPlain, kFixup, kAccRegs>(
        acc, buf, barrier_id, tid, p, alpha, beta, row_base, col_base, row_lo, col_lo, batch,
        fixup);
  } else {
    constexpr int kTailRegs = kAccRegs - kHeadRegs;
    const auto& head = reinterpret_cast<const float(&)[kHeadRegs]>(acc);
    const auto& tail = reinterpret_cast<const float(&)[kTailRegs]>(acc[kHeadRegs]);
    epilogue_staged_rounds<OutT, kPlain, kFixup, kAccRegs>(
        head, buf, barrier_id, tid, p, alpha, beta, row_base, col_base, row_lo, col_lo, batch,
        fixup);
    const Fixup tail_fixup{
        kFixup ? fixup.slot0 + partial_offset(kHeadRegs / 4, 0) : fixup.slot0,
        fixup.slot_stride, fixup.count};
    epilogue_staged_rounds<OutT, kPlain, kFixup, kAccRegs>(
        tail, buf, barrier_id, tid, p, alpha, beta, row_base, col_base + 2 * kHeadRegs, row_lo,
        col_lo, batch, tail_fixup);
  }
}

}  // namespace dg_sm90
