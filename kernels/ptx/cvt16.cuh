// Conversions between fp32 and the 16-bit float formats, on raw 16-bit patterns (NVRTC has
// no cuda_fp16.h / cuda_bf16.h). Round to nearest even, as cuBLAS's output conversion.
#pragma once

__device__ __forceinline__ unsigned short cvt16_f32_to_bf16(float x) {
  unsigned short r;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(r) : "f"(x));
  return r;
}

__device__ __forceinline__ unsigned short cvt16_f32_to_f16(float x) {
  unsigned short r;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r) : "f"(x));
  return r;
}

__device__ __forceinline__ float cvt16_f16_to_f32(unsigned short x) {
  float r;
  asm("cvt.f32.f16 %0, %1;" : "=f"(r) : "h"(x));
  return r;
}
