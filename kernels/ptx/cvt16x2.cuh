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

// One register of two 16-bit floats to two fp32 values (exact): the inverses of the above,
// low half first.
__device__ __forceinline__ void cvt16x2_bf16x2_to_f32(unsigned r, float& lo, float& hi) {
  lo = __uint_as_float(r << 16);
  hi = __uint_as_float(r & 0xffff0000u);
}

__device__ __forceinline__ void cvt16x2_f16x2_to_f32(unsigned r, float& lo, float& hi) {
  asm("{\n"
      ".reg .f16 l, h;\n"
      "mov.b32 {l, h}, %2;\n"
      "cvt.f32.f16 %0, l;\n"
      "cvt.f32.f16 %1, h;\n"
      "}\n"
      : "=f"(lo), "=f"(hi)
      : "r"(r));
}
