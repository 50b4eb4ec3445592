// wgmma shared-memory matrix descriptors.
#pragma once

namespace dg_sm90 {

// Descriptor of a K-major operand tile stored as TMA writes it with CU_TENSOR_MAP_SWIZZLE_128B:
// one 128-byte row per M (or N) index holding 64 16-bit k-values, 16-byte chunks XOR-swizzled
// by (row % 8), 8-row groups 1024 bytes apart. Bit layout per PTX ISA "Matrix Descriptor
// Format" (wgmma): [0,14) start address >> 4; [16,30) leading-dimension byte offset >> 4 (unused
// for swizzled K-major layouts, set to 1 by convention); [32,46) stride-dimension byte offset
// >> 4 = 1024 >> 4 between 8-row groups; [49,52) base offset = 0 because every tile starts on
// a 1024-byte boundary (the swizzle pattern's period); [62,64) layout type, 1 = 128-byte swizzle.
//
// The k-th 16-element slice of the tile starts 32*k bytes into each row: the hardware applies
// the swizzle to the absolute address bits, so advancing the start address within the 128-byte
// row selects the slice.
__device__ __forceinline__ unsigned long long desc_kmajor_sw128(unsigned smem_address) {
  constexpr unsigned long long kFixed = (1ull << 16) | ((1024ull >> 4) << 32) | (1ull << 62);
  return kFixed | ((smem_address & 0x3FFFFu) >> 4);
}

}  // namespace dg_sm90
