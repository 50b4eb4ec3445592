// Conversions between fp32 and the narrow types, one PTX instruction each.
// PTX ISA section "Data Movement and Conversion Instructions: cvt".
#pragma once

// f16 -> f32 is exact (every f16 value is an f32 value), so no rounding mode is needed.
__device__ __forceinline__ float cvt_f32_f16(unsigned short h) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return f;
}

// f32 -> f16, round to nearest even: what cuBLAS and PyTorch do when storing fp16 outputs.
// Out-of-range values become +-inf and NaN stays NaN (cvt semantics), no saturation.
__device__ __forceinline__ unsigned short cvt_rn_f16_f32(float f) {
  unsigned short h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  return h;
}

// f32 -> tf32 (a 32-bit pattern with the low 13 mantissa bits cleared), rounding to nearest
// with ties away from zero: the only rounding cvt offers for .tf32 (sm_80+), and the one
// cuBLAS documents for its TF32 modes. Feeding plain fp32 bits to the tf32 mma would
// truncate instead, a systematic bias the float64 reference would see at large k.
__device__ __forceinline__ unsigned cvt_rna_tf32_f32(float f) {
  unsigned t;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(t) : "f"(f));
  return t;
}
