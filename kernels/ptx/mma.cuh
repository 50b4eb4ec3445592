// Warp-level tensor-core multiply-accumulate (mma.sync), fp32 accumulators.
// PTX ISA section "Warp Level Matrix Multiply-Accumulate Instructions: mma"; the operand
// fragments are described in "Matrix Fragments for mma.m16n8k16 with floating point type"
// and "Matrix Fragments for mma.m16n8k8" (.tf32). Within a .b32 register holding two 16-bit
// elements, the lower-indexed element (a0, b0, ...) is in the low half.
#pragma once

#include "common/types.cuh"

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 800
// m16n8k16 with f32 accumulate and the tf32 shape need sm_80; the planner uses FFMA below.
#error "deepgemm: mma.sync m16n8k16 / tf32 kernels need sm_80 or newer"
#endif

// D = A * B + D for a 16x8x16 tile, f16 inputs.
// a: 4 registers (row g / g+8, cols 2t..2t+1 / 2t+8..2t+9), b: 2 registers (rows 2t..2t+1 /
// 2t+8..2t+9, col g), d: c0..c3 (row g / g+8, cols 2t, 2t+1); g = lane / 4, t = lane % 4.
__device__ __forceinline__ void mma_m16n8k16_f16(float (&d)[4], const unsigned (&a)[4],
                                                 const unsigned (&b)[2]) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Same fragment layout as mma_m16n8k16_f16, bf16 inputs.
__device__ __forceinline__ void mma_m16n8k16_bf16(float (&d)[4], const unsigned (&a)[4],
                                                  const unsigned (&b)[2]) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// D = A * B + D for a 16x8x8 tile, tf32 inputs (one element per register).
// a: a0 (row g, col t), a1 (row g+8, col t), a2 (row g, col t+4), a3 (row g+8, col t+4);
// b: b0 (row t, col g), b1 (row t+4, col g); d as for m16n8k16.
__device__ __forceinline__ void mma_m16n8k8_tf32(float (&d)[4], const unsigned (&a)[4],
                                                 const unsigned (&b)[2]) {
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// m16n8k16 picked by the 16-bit operand type (the portable mainloop's and the skinny
// kernel's); other types have no specialisation and fail to compile.
template <typename T>
struct Mma16816;
template <>
struct Mma16816<half_t> {
  __device__ __forceinline__ static void run(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
    mma_m16n8k16_f16(d, a, b);
  }
};
template <>
struct Mma16816<bf16_t> {
  __device__ __forceinline__ static void run(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
    mma_m16n8k16_bf16(d, a, b);
  }
};
