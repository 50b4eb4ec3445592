// The pack kernel: copies one strided operand (A or B of a GEMM) into a dense copy in the
// caller's workspace whose leading dimension and batch stride TMA can use, so that the Hopper
// kernel can read operands whose leading dimension, batch stride or base address breaks TMA's
// 16-byte rules (src/plan/pack.rs decides when; src/gemm.rs enqueues it before the GEMM).
//
// The storage order does not change (`pack`; the transposing form `transpose`, at the end, is
// the one exception): a line of the contiguous dimension (k for a K-major operand, m or n for
// an MN-major one) stays a line, only the distance between lines (`src_ld` -> `dst_ld`) and
// between batches (`src_bs` -> `dst_bs`) changes. So no transpose and no shared memory: lanes
// of a warp take consecutive pieces of one line, which makes both the reads (along the
// source's unit stride) and the writes coalesced. Elements are copied as raw bits (2 or 4
// bytes), never converted.
//
// 16-byte accesses. A lane moves one 16-byte aligned *destination* chunk (8 or 4 elements) at
// a time with one vector store: element-wide loads and stores (the first version) left the
// copy at ~2.8 TB/s on an H200 (Nsight Compute: 24 us per 4097 x 4097 bf16 operand), bound by
// the number of memory instructions rather than by DRAM. The source of a chunk is generally
// not 16-byte aligned (an odd source leading dimension starts every line at another offset;
// when unpacking it is the destination, D, whose lines start anywhere), but within one line
// the byte shift `(S0 - D0) mod 16` between the source and destination line starts is the same
// for every chunk. So a lane loads the aligned 16-byte source chunk that holds the start of
// its data, takes the aligned chunk after it from its right neighbour (a warp shuffle, so each
// source chunk is loaded once; lane 31 from lane 0's next chunk, and only the last lane of a
// pass loads a second chunk itself), and funnel-shifts the eight words by the line's shift.
// The shift is warp-uniform (a warp works on one line), so a switch on its word part keeps
// every register index a compile-time constant (no local memory).
//
// The chunks at a line's ends take an element-wise path instead: a destination chunk not wholly
// inside the line's written bytes, or one whose aligned source chunks reach outside the source
// line's data, so that no access ever leaves the caller's lines (no read past the end of an
// allocation). The vector path covers the chunks [fast_begin, fast_end) of a line, an interval
// computed once per item; outside it are at most two chunks at the line's start, and at its end
// the one or two chunks around the end of the data and the padding's chunks. Their loads are
// issued before the vector passes' and their stores after them (no round trip of their own);
// a whole destination chunk is still stored at once (the zero padding of packed lines).
//
// Work is split into items of one warp: `segment` consecutive chunks of one destination line
// (the host balances a line's items; src/plan/pack.rs `PackVariant::split`). A warp takes
// items in a grid-stride loop (the host caps the grid at one wave of resident CTAs), so one
// grid serves any number of lines and any line length, and the two 64-bit divisions that
// locate an item are paid once per item. Each pass over an item loads kUnroll chunks per lane
// before storing any, so every thread keeps kUnroll 16-byte loads in flight (Little's law: an
// H200 needs ~4 MB in flight at ~1 us latency; 4 x 16 bytes x 1024 threads x 132 SMs is 8.6).
//
// The destination's padding (elements inner..dst_ld of every line) is written with zeros:
// the writes then cover whole lines (no partial 32-byte sectors) and the buffer holds no
// stale workspace bytes; TMA never reads them (its extent is `inner`). The same kernel copies
// a result back from the workspace into the caller's D (`write` = inner: D's padding is left
// alone; D's lines may start anywhere, the chunks are aligned on D's addresses).
#pragma once

#include "ptx/griddep.cuh"

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
  long long segments;  // work items per destination line
  long long segment;   // 16-byte destination chunks per work item (the host: a multiple of 32)
  // Nonzero: this copy does not depend on the launch just before it on the stream, the call's
  // previous copy, which waited for the call's predecessor before it let this one start (its
  // griddep_launch_dependents follows its griddep_wait). So it copies at once and waits for
  // that copy only before it exits: the two run together, and a launch that waits for this
  // one still finds both complete. Zero: the wait comes first (the call's first copy; D's
  // copy back, which reads the GEMM's result).
  long long overlap;
};

static_assert(sizeof(PackParams) == 13 * 8, "PackParams layout must match src/jit/pack.rs");

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

// 16 bytes as four 32-bit words (little-endian: word 0 holds the lowest addresses).
struct Chunk {
  unsigned w[4];
};

// 16-byte load through the read-only (non-coherent) path: the source is never written while
// the kernel runs and never overlaps the destination. `p` is 16-byte aligned.
__device__ __forceinline__ Chunk ld_nc_v4(const void* p) {
  Chunk c;
  asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(c.w[0]), "=r"(c.w[1]), "=r"(c.w[2]), "=r"(c.w[3])
               : "l"(p));
  return c;
}

// 16-byte store to global memory; `p` is 16-byte aligned.
__device__ __forceinline__ void st_v4(void* p, const Chunk& c) {
  asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(c.w[0]), "r"(c.w[1]),
               "r"(c.w[2]), "r"(c.w[3])
               : "memory");
}

// The 16 bytes that start `kWord` words plus `bits` bits into the 32 bytes lo:hi.
template <int kWord>
__device__ __forceinline__ Chunk shift_out(const Chunk& lo, const Chunk& hi, unsigned bits) {
  unsigned x[8];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    x[i] = lo.w[i];
    x[i + 4] = hi.w[i];
  }
  Chunk r;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    // funnelshift_r(a, b, s) = the low word of (b:a) >> s; s = 0 gives a.
    r.w[i] = __funnelshift_r(x[kWord + i], x[kWord + i + 1], bits);
  }
  return r;
}

// A pass of the vector path: lo[j] (the aligned source chunk of chunk j * 32 + lane)
// becomes the 16 bytes kWord words plus `bits` bits into it and the next source chunk, which
// lane + 1 holds (lane 0's lo[j + 1] for lane 31; last_hi for lane 31's last j, own_hi).
// Every lane must call it.
template <int kWord, int kUnroll>
__device__ __forceinline__ void shift_pass(Chunk (&lo)[kUnroll], const Chunk& last_hi,
                                           bool own_hi, const bool (&active)[kUnroll], int lane,
                                           unsigned bits) {
#pragma unroll
  for (int j = 0; j < kUnroll; ++j) {
    Chunk hi;
#pragma unroll
    for (int w = 0; w < 4; ++w) {
      // Lane 0 sends its next chunk (to lane 31), every other lane its own (to lane - 1).
      const unsigned send = j + 1 < kUnroll && lane == 0 ? lo[j + 1].w[w] : lo[j].w[w];
      hi.w[w] = __shfl_sync(0xffffffffu, send, lane + 1);
      if (j + 1 == kUnroll && own_hi) hi.w[w] = last_hi.w[w];
    }
    if (active[j]) lo[j] = shift_out<kWord>(lo[j], hi, bits);
  }
}

// Element by element, for chunks the vector path does not take: the chunk whose first line
// element is e0 (negative in a line's first chunk when the line starts inside its 16-byte unit).
// Element e gets s[e] when e < inner, zero when inner <= e (the padding). Loading and packing
// are separate steps so that the loads can be in flight while the vector path issues its own.
template <int kBytes>
struct Elems {
  unsigned v[16 / kBytes];
};

template <int kBytes>
__device__ __forceinline__ Elems<kBytes> gather_elems(const typename Word<kBytes>::type* s,
                                                      long long e0, long long inner) {
  Elems<kBytes> r;
#pragma unroll
  for (int k = 0; k < 16 / kBytes; ++k) {
    const long long e = e0 + k;
    r.v[k] = e >= 0 && e < inner ? static_cast<unsigned>(s[e]) : 0u;
  }
  return r;
}

template <int kBytes>
__device__ __forceinline__ Chunk to_chunk(const Elems<kBytes>& r) {
  Chunk c;
#pragma unroll
  for (int w = 0; w < 4; ++w) c.w[w] = 0;
#pragma unroll
  for (int k = 0; k < 16 / kBytes; ++k) {
    c.w[k * kBytes / 4] |= r.v[k] << (8 * ((k * kBytes) % 4));
  }
  return c;
}

// Stores the elements 0 <= e < write of such a chunk: one 16-byte store when all of them are.
template <int kBytes>
__device__ __forceinline__ void put_chunk(typename Word<kBytes>::type* d, long long e0,
                                          long long write, const Chunk& c) {
  typedef typename Word<kBytes>::type T;
  constexpr int kElems = 16 / kBytes;
  if (e0 >= 0 && e0 + kElems <= write) {
    st_v4(d + e0, c);
    return;
  }
#pragma unroll
  for (int k = 0; k < kElems; ++k) {
    const long long e = e0 + k;
    if (e >= 0 && e < write) {
      d[e] = static_cast<T>(c.w[k * kBytes / 4] >> (8 * ((k * kBytes) % 4)));
    }
  }
}

template <int kBytes, int kThreads, int kUnroll>
__device__ __forceinline__ void pack(const PackParams& p) {
  typedef typename Word<kBytes>::type T;
  static_assert(sizeof(T) == kBytes, "element word size");
  static_assert(kThreads % 32 == 0, "whole warps");
  static_assert(kUnroll >= 1, "chunks per lane and pass");
  constexpr int kWarps = kThreads / 32;
  // One pass of a warp: kUnroll chunks per lane, lanes adjacent.
  constexpr int kPass = 32 * kUnroll;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // Launched programmatically on Hopper (src/gemm.rs, with the sm90 GEMM it feeds): the
  // launch may overlap the previous kernel, whose writes (the operand; D, when unpacking) this
  // copy must see, and the next kernel may start its prologue under this one. An `overlap`
  // copy waits at its end instead (PackParams).
  if (p.overlap == 0) griddep_wait();
  griddep_launch_dependents();
#endif
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const long long items = p.outer * p.batch * p.segments;
  const long long first = static_cast<long long>(blockIdx.x) * kWarps + threadIdx.x / 32;
  const long long stride = static_cast<long long>(gridDim.x) * kWarps;
  for (long long item = first; item < items; item += stride) {
    // Two divisions per item, not per chunk.
    const long long line = item / p.segments;
    const long long segment = item - line * p.segments;
    const long long b = line / p.outer;
    const long long row = line - b * p.outer;
    const T* s = static_cast<const T*>(p.src) + b * p.src_bs + row * p.src_ld;
    T* d = static_cast<T*>(p.dst) + b * p.dst_bs + row * p.dst_ld;
    // Chunk i of the line is the 16 bytes at d_first + 16 i (d_first: d rounded down to 16
    // bytes, `off` bytes before d). Its source bytes start `shift` bytes into the aligned
    // source chunk at s_first + 16 i.
    const unsigned long long d_addr = reinterpret_cast<unsigned long long>(d);
    const unsigned long long s_addr = reinterpret_cast<unsigned long long>(s);
    const long long off = static_cast<long long>(d_addr & 15);
    const unsigned shift = static_cast<unsigned>(s_addr - d_addr) & 15;
    const long long d_bytes = off + p.write * kBytes;  // from d_first to the line's end
    const long long line_chunks = (d_bytes + 15) >> 4;
    const long long begin = segment * p.segment;
    const long long end = begin + p.segment < line_chunks ? begin + p.segment : line_chunks;
    // The vector path takes chunks [fast_begin, fast_end): the destination chunk is whole
    // (off == 0 || i >= 1, and 16 i + 16 <= d_bytes), and the aligned source bytes it reads,
    // 16 i .. 16 i + need from s_first, lie in the data, which spans off + shift ..
    // off + shift + inner * kBytes from s_first. Clamped to the item's [begin, end).
    const long long need = shift != 0 ? 32 : 16;
    const long long src_room = off + shift + p.inner * kBytes - need;
    long long fast_begin = (off + shift + 15) >> 4;
    fast_begin = fast_begin < begin ? begin : fast_begin > end ? end : fast_begin;
    long long fast_end = src_room < 0 ? 0 : (src_room >> 4) + 1;
    fast_end = fast_end < (d_bytes >> 4) ? fast_end : (d_bytes >> 4);
    fast_end = fast_end > end ? end : fast_end < fast_begin ? fast_begin : fast_end;

    // Element-wise path: the item's chunks before fast_begin (at most two, at the line's start)
    // and from fast_end (the end of the line's data, its padding); lane t takes the t-th. Those
    // of lanes 0..31 are loaded before the vector passes and stored after them, so that their
    // loads overlap with the first pass's. More than 32 (only when `write` exceeds `inner` by
    // far more than a packed line's padding) take a round trip per 32, first.
    const long long head = fast_begin - begin;
    const long long slow = head + (end - fast_end);
    for (long long t = lane + 32; t < slow; t += 32) {
      const long long i = t < head ? begin + t : fast_end + (t - head);
      const long long e0 = (16 * i - off) / kBytes;
      const Chunk c = to_chunk<kBytes>(gather_elems<kBytes>(s, e0, p.inner));
      put_chunk<kBytes>(d, e0, p.write, c);
    }
    const bool edge = lane < slow;
    const long long edge_i = lane < head ? begin + lane : fast_end + (lane - head);
    const long long edge_e0 = (16 * edge_i - off) / kBytes;
    Elems<kBytes> edge_elems = {};
    if (edge) edge_elems = gather_elems<kBytes>(s, edge_e0, p.inner);

    // Vector path, in chunks relative to the item's first (at most p.segment of them).
    // Passes start there (a multiple of 32: a warp's stores stay in 512-byte groups of the
    // line); chunk r = j * 32 + lane of a pass is active when lo_r <= r < hi_r.
    const char* s_pass = reinterpret_cast<const char*>(s_addr - off - shift) + 16 * begin;
    char* d_pass = reinterpret_cast<char*>(d_addr - off) + 16 * begin;
    const int fast_lo = static_cast<int>(fast_begin - begin);
    // (No pass when the interval is empty: then no chunk may be loaded, not even fast_end.)
    const int fast_hi = fast_end > fast_begin ? static_cast<int>(fast_end - begin) : 0;
    const unsigned bits = kBytes == 4 ? 0u : (shift & 3) * 8;  // 4-byte elements: whole words
    for (int c0 = 0; c0 < fast_hi; c0 += kPass, s_pass += 16 * kPass, d_pass += 16 * kPass) {
      const int lo_r = fast_lo - c0;
      const int hi_r = fast_hi - c0;
      // Chunk r needs the aligned source chunks r and r + 1 (r alone when shift == 0). Lanes
      // load chunk r as lo[j] for r in [lo_r, hi_r], one past the last active chunk (still in
      // the source data: it is what that chunk reads), and take r + 1 from the next lane (lane
      // 31: from lane 0's next j). Only lane 31's last chunk loads its second chunk itself.
      const int load_hi = hi_r + (shift != 0);
      Chunk lo[kUnroll], last_hi = {};
      bool active[kUnroll];
#pragma unroll
      for (int j = 0; j < kUnroll; ++j) {
        const int r = j * 32 + lane;
        active[j] = r >= lo_r && r < hi_r;
#pragma unroll
        for (int w = 0; w < 4; ++w) lo[j].w[w] = 0;
        if (r >= lo_r && r < load_hi) lo[j] = ld_nc_v4(s_pass + 16 * r);
      }
      const bool own_hi = lane == 31 && active[kUnroll - 1] && shift != 0;
      if (own_hi) last_hi = ld_nc_v4(s_pass + 16 * kPass);
      // The line's shift: its word part by a (warp-uniform) switch, the rest by funnel shifts.
      // Every lane of the warp shuffles (the pass loop is warp-uniform).
      switch (shift >> 2) {
        case 0:
          shift_pass<0, kUnroll>(lo, last_hi, own_hi, active, lane, bits);
          break;
        case 1:
          shift_pass<1, kUnroll>(lo, last_hi, own_hi, active, lane, bits);
          break;
        case 2:
          shift_pass<2, kUnroll>(lo, last_hi, own_hi, active, lane, bits);
          break;
        default:
          shift_pass<3, kUnroll>(lo, last_hi, own_hi, active, lane, bits);
          break;
      }
#pragma unroll
      for (int j = 0; j < kUnroll; ++j) {
        if (active[j]) st_v4(d_pass + 16 * (j * 32 + lane), lo[j]);
      }
    }

    if (edge) put_chunk<kBytes>(d, edge_e0, p.write, to_chunk<kBytes>(edge_elems));
  }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // An overlapping copy ends only after the copy before it: whatever waits for this launch
  // then sees both complete (PackParams `overlap`).
  if (p.overlap != 0) griddep_wait();
#endif
}

// ---- The transposing form (src/plan/pack.rs `PackedOperand::transposed`). ----
//
// tf32 wgmma reads B K-major only, so an N-major B under tf32 math is copied transposed into
// the workspace: destination line j (j < outer) of batch b holds, at i < inner, source line
// i's element j, and zeros in its padding (inner <= i < dst_ld). Through shared memory a tile
// of kTile x kTile elements at a time, so that both the reads (along source lines) and the
// writes (along destination lines) are whole 256-byte runs of a warp: each warp loads its
// rows of the tile (every load of the tile issued before the first is used: kTile / warps
// rows x kTile / 32 elements a lane in flight) and stores its destination rows from the
// tile's columns. The tile's rows are padded by one word, so a warp reading a column hits 32
// banks. A CTA takes tiles in a grid-stride loop (the host caps the grid at a wave).
// `segments` and `segment` are unused.

// 4-byte load through the read-only path (the source is never written while the copy runs).
__device__ __forceinline__ unsigned ld_nc_u32(const unsigned* p) {
  unsigned v;
  asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ void st_u32(unsigned* p, unsigned v) {
  asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

template <int kBytes, int kThreads, int kTile>
__device__ __forceinline__ void transpose(const PackParams& p) {
  static_assert(kBytes == 4, "the transposing copy is built for 4-byte elements (tf32's B)");
  static_assert(kThreads % 32 == 0 && kTile % 32 == 0, "whole warps, whole lanes a row");
  constexpr int kWarps = kThreads / 32;
  static_assert(kTile % kWarps == 0, "every warp the same rows of a tile");
  constexpr int kRows = kTile / kWarps;  // tile rows a warp loads and stores
  constexpr int kCols = kTile / 32;      // elements a lane takes in a row
  __shared__ unsigned tile[kTile][kTile + 1];

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // As the plain form: launched programmatically before the sm90 GEMM it feeds.
  if (p.overlap == 0) griddep_wait();
  griddep_launch_dependents();
#endif
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  // Tiles along the destination lines (source lines, i) and across them (j), every batch.
  const long long tiles_i = (p.dst_ld + kTile - 1) / kTile;
  const long long tiles_j = (p.outer + kTile - 1) / kTile;
  const long long per_batch = tiles_i * tiles_j;
  const long long tiles = per_batch * p.batch;
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
    const long long b = t / per_batch;
    const long long r = t - b * per_batch;
    const long long tj = r / tiles_i;
    const long long i0 = (r - tj * tiles_i) * kTile;
    const long long j0 = tj * kTile;
    const unsigned* s = static_cast<const unsigned*>(p.src) + b * p.src_bs;
    unsigned* d = static_cast<unsigned*>(p.dst) + b * p.dst_bs;
    // Rows i0 + warp + kWarps * y of the source, elements j0 + lane + 32 x; zeros past the
    // data (the copy's padding, and the ragged tile's rest, never stored).
    unsigned v[kRows][kCols];
#pragma unroll
    for (int y = 0; y < kRows; ++y) {
      const long long i = i0 + warp + kWarps * y;
#pragma unroll
      for (int x = 0; x < kCols; ++x) {
        const long long j = j0 + lane + 32 * x;
        v[y][x] = i < p.inner && j < p.outer ? ld_nc_u32(s + i * p.src_ld + j) : 0u;
      }
    }
    // The previous tile's stores have read the tile (the barrier at the loop's end).
#pragma unroll
    for (int y = 0; y < kRows; ++y) {
#pragma unroll
      for (int x = 0; x < kCols; ++x) {
        tile[warp + kWarps * y][lane + 32 * x] = v[y][x];
      }
    }
    __syncthreads();
    // Destination line j0 + warp + kWarps * y, elements i0 + lane + 32 x: the tile's column.
#pragma unroll
    for (int y = 0; y < kRows; ++y) {
      const long long j = j0 + warp + kWarps * y;
#pragma unroll
      for (int x = 0; x < kCols; ++x) {
        const long long i = i0 + lane + 32 * x;
        if (j < p.outer && i < p.dst_ld) {
          st_u32(d + j * p.dst_ld + i, tile[lane + 32 * x][warp + kWarps * y]);
        }
      }
    }
    __syncthreads();
  }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // As the plain form.
  if (p.overlap != 0) griddep_wait();
#endif
}

}  // namespace dg_pack
