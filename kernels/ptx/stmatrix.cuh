// stmatrix (sm_90): a warp stores 8x8 matrices of 16-bit elements from registers to shared
// memory, 16 bytes per matrix row. PTX ISA section "Data Movement and Conversion Instructions:
// stmatrix".
//
// Fragment (the same as ldmatrix's and as an mma accumulator's 8x8 block): for matrix i, lane l
// holds register r[i] with row l/4, columns 2(l%4) (low half) and 2(l%4)+1 (high half). Lanes
// 8i..8i+7 give the shared addresses of matrix i's eight 16-byte rows. With .trans each matrix
// is stored transposed: the row whose address lane 8i+j gives receives column j of the
// fragment.
#pragma once

__device__ __forceinline__ void stmatrix_x4(unsigned addr, const unsigned (&r)[4]) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr),
               "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
               : "memory");
}

__device__ __forceinline__ void stmatrix_x4_trans(unsigned addr, const unsigned (&r)[4]) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(
                   addr),
               "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
               : "memory");
}

// Two matrices (lanes 0..15 give the addresses): the last 8 columns of a tile whose width is
// 8 past a multiple of 16.
__device__ __forceinline__ void stmatrix_x2_trans(unsigned addr, unsigned r0, unsigned r1) {
  asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" ::"r"(addr),
               "r"(r0), "r"(r1)
               : "memory");
}

// stmatrix_x2_trans's untransposed twin: the last 8 columns of a row-major D box at a width 8
// past a multiple of 16.
__device__ __forceinline__ void stmatrix_x2(unsigned addr, unsigned r0, unsigned r1) {
  asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(addr), "r"(r0),
               "r"(r1)
               : "memory");
}
