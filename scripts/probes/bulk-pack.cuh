// Device half of scripts/probes/bulk-pack.cu (apart so that NVRTC can compile-check it without
// the toolkit's headers: scripts/probes/nvrtc-check.py).
//
// Packs a K-major 16-bit operand whose rows start anywhere on the 2-byte grid (ld odd: TMA
// cannot read it) into an aligned copy (rows `ldo` elements apart, ldo a multiple of 64), the
// way a persistent GEMM's idle producer warps would: each packer warp keeps a ring of `slots`
// shared-memory slots; its lane 0 bulk-loads a piece (one row's `chunk` elements) as the
// 16-byte-aligned span that covers it (`cp.async.bulk`: no registers held while in flight),
// and the whole warp, once the slot is full, reads it shifted by the row's element offset and
// writes 16-byte units to the copy with plain stores. Pieces go round-robin over all packer
// warps of the grid. `warps` packer warps a CTA of 128 threads (the rest return at once).
#pragma once

#include "ptx/bulk.cuh"
#include "ptx/fence.cuh"
#include "ptx/mbarrier.cuh"
#include "ptx/smem.cuh"

constexpr int kPackMaxSlots = 16;
constexpr int kPackMaxWarps = 4;

// The piece's source span: its first element's address, rounded down to 16 bytes, and the
// span's length (a multiple of 16) covering `len` elements.
struct PackSpan {
  unsigned long long start;  // the first element's address
  unsigned long long a0;     // start rounded down to 16 bytes
  unsigned bytes;            // a0 .. the last element's end rounded up to 16 bytes
};

__device__ __forceinline__ PackSpan pack_span(const unsigned char* src, long long ld, long long row,
                                              long long c0, int len) {
  PackSpan s;
  s.start = reinterpret_cast<unsigned long long>(src) + 2ull * (row * ld + c0);
  s.a0 = s.start & ~15ull;
  const unsigned long long end = (s.start + 2ull * len + 15ull) & ~15ull;
  s.bytes = static_cast<unsigned>(end - s.a0);
  return s;
}

__global__ void __launch_bounds__(128, 1)
    pack_bulk(const unsigned char* src, long long ld, long long rows, long long k,
              unsigned char* dst, long long ldo, int chunk, int slots, int slot_bytes, int warps) {
  extern __shared__ __align__(128) unsigned char smem[];
  __shared__ unsigned long long full[kPackMaxWarps][kPackMaxSlots];
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  if (warp >= warps) return;
  const unsigned ring = smem_addr(smem) + static_cast<unsigned>(warp * slots * slot_bytes);
  if (lane == 0) {
    for (int s = 0; s < slots; ++s) mbarrier_init(smem_addr(&full[warp][s]), 1);
    fence_barrier_init();
  }
  __syncwarp();
  const long long per_row = (k + chunk - 1) / chunk;
  const long long pieces = rows * per_row;
  const long long packers = static_cast<long long>(gridDim.x) * warps;
  const long long me = static_cast<long long>(blockIdx.x) * warps + warp;
  const long long n = me < pieces ? (pieces - me + packers - 1) / packers : 0;
  // Piece i of this warp: row and first element.
  auto where = [&](long long i, long long& row, long long& c0, int& len) {
    const long long p = me + i * packers;
    row = p / per_row;
    c0 = (p - row * per_row) * chunk;
    len = static_cast<int>(k - c0 < chunk ? k - c0 : chunk);
  };
  auto issue = [&](long long i) {
    long long row, c0;
    int len;
    where(i, row, c0, len);
    const PackSpan sp = pack_span(src, ld, row, c0, len);
    const int s = static_cast<int>(i % slots);
    const unsigned bar = smem_addr(&full[warp][s]);
    mbarrier_arrive_expect_tx(bar, sp.bytes);
    bulk_load(ring + static_cast<unsigned>(s * slot_bytes),
              reinterpret_cast<const void*>(sp.a0), sp.bytes, bar);
  };
  if (lane == 0) {
    for (long long i = 0; i < n && i < slots; ++i) issue(i);
  }
#pragma unroll 1
  for (long long i = 0; i < n; ++i) {
    const int s = static_cast<int>(i % slots);
    mbarrier_wait_parity(smem_addr(&full[warp][s]), static_cast<unsigned>((i / slots) & 1));
    long long row, c0;
    int len;
    where(i, row, c0, len);
    const PackSpan sp = pack_span(src, ld, row, c0, len);
    const unsigned base = ring + static_cast<unsigned>(s * slot_bytes) +
                          static_cast<unsigned>(sp.start - sp.a0);
    // Units of 8 elements; the last may be partial (its tail and the copy's padding are 0).
    const int units = (len + 7) / 8;
    unsigned* out = reinterpret_cast<unsigned*>(dst + 2ull * (row * ldo + c0));
#pragma unroll 1
    for (int j = lane; j < units; j += 32) {
      const unsigned b = base + 16u * static_cast<unsigned>(j);
      unsigned w[4];
      if ((b & 3u) == 0) {
#pragma unroll
        for (int t = 0; t < 4; ++t) w[t] = ld_shared_u32(b + 4u * t);
      } else {
        // Off by one element: each word from the two that straddle it.
        unsigned x[5];
#pragma unroll
        for (int t = 0; t < 5; ++t) x[t] = ld_shared_u32(b - 2u + 4u * t);
#pragma unroll
        for (int t = 0; t < 4; ++t) w[t] = __funnelshift_r(x[t], x[t + 1], 16);
      }
      const int valid = len - 8 * j;
      if (valid < 8) {
#pragma unroll
        for (int t = 0; t < 4; ++t) {
          if (2 * t >= valid) w[t] = 0;
          else if (2 * t + 1 >= valid) w[t] &= 0xffffu;
        }
      }
      asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(out + 4 * j), "r"(w[0]),
                   "r"(w[1]), "r"(w[2]), "r"(w[3])
                   : "memory");
    }
    __syncwarp();
    if (lane == 0 && i + slots < n) issue(i + slots);
  }
}
