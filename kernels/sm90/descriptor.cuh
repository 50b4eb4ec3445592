// wgmma shared-memory matrix descriptors for tiles that TMA wrote with
// CU_TENSOR_MAP_SWIZZLE_128B: 128-byte lines whose 16-byte chunks are XOR-swizzled by
// (line % 8), so the pattern repeats every 1024 bytes (8 lines).
//
// Bit layout per PTX ISA "Matrix Descriptor Format" (wgmma): [0,14) start address >> 4;
// [16,30) leading-dimension byte offset (LBO) >> 4; [32,46) stride-dimension byte offset (SBO)
// >> 4; [49,52) base offset, 0 here because every tile starts on a 1024-byte boundary; [62,64)
// layout type, 1 = 128-byte swizzle.
#pragma once

namespace dg_sm90 {

constexpr unsigned long long kDescSwizzle128 = 1ull << 62;

__device__ __forceinline__ unsigned long long make_desc_sw128(unsigned smem_address,
                                                              unsigned lbo_bytes,
                                                              unsigned sbo_bytes) {
  return kDescSwizzle128 | (static_cast<unsigned long long>((sbo_bytes >> 4) & 0x3FFFu) << 32) |
         (static_cast<unsigned long long>((lbo_bytes >> 4) & 0x3FFFu) << 16) |
         ((smem_address & 0x3FFFFu) >> 4);
}

// K-major operand (imm-trans = 0): one 128-byte line per M (or N) index holding 64 16-bit
// (or 32 tf32) k-values; 8-line groups are SBO = 1024 bytes apart; LBO is unused for swizzled
// K-major layouts (1 by convention). The k-th slice of one wgmma (16 16-bit or 8 tf32 values,
// 32 bytes either way) starts 32*k bytes into each line: the hardware applies the swizzle to
// the absolute address bits, so moving the start address within the line selects the slice.
__device__ __forceinline__ unsigned long long desc_kmajor_sw128(unsigned smem_address) {
  return make_desc_sw128(smem_address, 16, 1024);
}

// MN-major operand (imm-trans = 1): one 128-byte line per k index holding 64 consecutive M (or
// N) values; 8-line (8 k) groups are SBO = 1024 bytes apart, and consecutive 64-wide M/N chunks
// are LBO = `chunk_bytes` apart (one TMA box each). The k-th 16-deep slice starts 16 lines =
// 2048*k bytes in, still on the swizzle period.
__device__ __forceinline__ unsigned long long desc_mnmajor_sw128(unsigned smem_address,
                                                                 unsigned chunk_bytes) {
  return make_desc_sw128(smem_address, chunk_bytes, 1024);
}

}  // namespace dg_sm90
