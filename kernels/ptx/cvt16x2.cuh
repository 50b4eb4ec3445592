// Two fp32 values to one register of two 16-bit floats, round to nearest even (one cvt each
// pair). PTX ISA section "cvt": for .bf16x2 / .f16x2 the FIRST source goes to the UPPER half,
// so these wrappers take (lo, hi) and swap them into the instruction.
#pragma once

__device__ __forceinline__ unsigned cvt16x2_f32_to_bf16x2(float lo, float hi) {
  unsigned r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
  return r;
}

__device__ __forceinline__ unsigned cvt16x2_f32_to_f16x2(float lo, float hi) {
  unsigned r;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
  return r;
}
