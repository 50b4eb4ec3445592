// ldmatrix (sm_75+): a warp loads 8x8 matrices of 16-bit elements from shared memory into
// registers, 16 bytes per matrix row. PTX ISA section "Data Movement and Conversion
// Instructions: ldmatrix". The fragment and the lanes' addresses are stmatrix's
// (ptx/stmatrix.cuh): at the same addresses, ldmatrix returns what stmatrix stored, so a tile
// TMA loaded in the TMA-store layout comes back in the accumulators' fragment.
#pragma once

__device__ __forceinline__ void ldmatrix_x4(unsigned addr, unsigned (&r)[4]) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr)
               : "memory");
}

__device__ __forceinline__ void ldmatrix_x4_trans(unsigned addr, unsigned (&r)[4]) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr)
               : "memory");
}

// Two matrices (lanes 0..15 give the addresses), as stmatrix_x2_trans.
__device__ __forceinline__ void ldmatrix_x2_trans(unsigned addr, unsigned& r0, unsigned& r1) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
               : "=r"(r0), "=r"(r1)
               : "r"(addr)
               : "memory");
}
