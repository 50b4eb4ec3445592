// Special-function unit approximations, one MUFU instruction each.
// PTX ISA section "Floating Point Instructions: tanh".
#pragma once

// tanh(x), maximum relative error 2^-11 (sm_75 and later): +-1 at +-inf, NaN stays NaN.
__device__ __forceinline__ float tanh_approx(float x) {
  float y;
  asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
