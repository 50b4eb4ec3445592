// The pack kernel: copies one strided operand (A or B of a GEMM) into a dense copy in the
// caller's workspace whose leading dimension and batch stride TMA can use, so that the Hopper
// kernel can read operands whose leading dimension, batch stride or base address breaks TMA's
// 16-byte rules (src/plan/pack.rs decides when; src/gemm.rs enqueues it before the GEMM).
//
// The storage order does not change: a line of the contiguous dimension (k for a K-major
// operand, m or n for an MN-major one) stays a line, only the distance between lines
// (`src_ld` -> `dst_ld`) and between batches (`src_bs` -> `dst_bs`) changes. So no transpose
// and no shared memory: lanes of a warp take consecutive elements of one line, which makes
// both the reads (along the source's unit stride) and the writes coalesced. Elements are copied
// as raw bits (2 or 4 bytes), never converted.
//
// Work is split into items of one warp: `kSegment` consecutive elements of one destination
// line. A warp takes items in a grid-stride loop (the host caps the grid at a few waves), so
// one grid serves any number of lines and any line length. Each pass over a segment loads
// kUnroll elements per lane before storing any, so every thread keeps kUnroll independent
// loads in flight: with 64 warps per SM that is what the memory system needs to approach
// HBM bandwidth (Little's law: ~4 MB in flight at ~1 us latency on an H200).
//
// The destination's padding (elements inner..dst_ld of every line) is written with zeros:
// the writes then cover whole lines (no partial 32-byte sectors) and the buffer holds no
// stale workspace bytes; TMA never reads them (its extent is `inner`). The same kernel copies
// a result back from the workspace into the caller's D (`write` = inner: D's padding is left
// alone).
#pragma once

namespace dg_pack {

// Mirrors `PackParams` in src/jit/pack.rs field for field (all 8-byte fields).
struct PackParams {
  const void* src;
  void* dst;
  long long inner;     // elements of a line that hold data (the contiguous extent)
  long long outer;     // lines per batch
  long long batch;
  long long src_ld;    // elements between consecutive source lines
  long long src_bs;    // elements between source batches (may be 0: a broadcast operand)
  long long dst_ld;    // elements between destination lines (a multiple of 128 bytes)
  long long dst_bs;    // elements between destination batches (outer * dst_ld)
  // Elements written per destination line: dst_ld when packing (the copy's padding is zeroed),
  // inner when unpacking a result into the caller's D (its padding is the caller's).
  long long write;
  long long segments;  // kSegment-element items per destination line: ceil(write / kSegment)
};

static_assert(sizeof(PackParams) == 11 * 8, "PackParams layout must match src/jit/pack.rs");

// The raw storage word of an element of kBytes bytes.
template <int kBytes>
struct Word;
template <>
struct Word<2> {
  typedef unsigned short type;
};
template <>
struct Word<4> {
  typedef unsigned int type;
};

template <int kBytes, int kThreads, int kUnroll, int kPasses>
__device__ __forceinline__ void pack(const PackParams& p) {
  typedef typename Word<kBytes>::type T;
  static_assert(sizeof(T) == kBytes, "element word size");
  static_assert(kThreads % 32 == 0, "whole warps");
  constexpr int kWarps = kThreads / 32;
  // One pass of a warp: kUnroll elements per lane, lanes adjacent.
  constexpr long long kPass = 32LL * kUnroll;
  constexpr long long kSegment = kPass * kPasses;

  const T* __restrict__ src = static_cast<const T*>(p.src);
  T* __restrict__ dst = static_cast<T*>(p.dst);
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const long long items = p.outer * p.batch * p.segments;
  const long long first = static_cast<long long>(blockIdx.x) * kWarps + threadIdx.x / 32;
  const long long stride = static_cast<long long>(gridDim.x) * kWarps;
  for (long long item = first; item < items; item += stride) {
    // Two divisions per item (kSegment elements), not per element.
    const long long line = item / p.segments;
    const long long segment = item - line * p.segments;
    const long long b = line / p.outer;
    const long long row = line - b * p.outer;
    const T* s = src + b * p.src_bs + row * p.src_ld;
    T* d = dst + b * p.dst_bs + row * p.dst_ld;
    const long long begin = segment * kSegment;
    const long long end = begin + kSegment < p.write ? begin + kSegment : p.write;
    for (long long c0 = begin; c0 < end; c0 += kPass) {
      T v[kUnroll];
#pragma unroll
      for (int j = 0; j < kUnroll; ++j) {
        const long long c = c0 + j * 32 + lane;
        v[j] = c < p.inner ? s[c] : T(0);
      }
#pragma unroll
      for (int j = 0; j < kUnroll; ++j) {
        const long long c = c0 + j * 32 + lane;
        if (c < end) d[c] = v[j];
      }
    }
  }
}

}  // namespace dg_pack
