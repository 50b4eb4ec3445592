// Epilogue activations. Numbers follow cuBLASLt's epilogues (CUBLASLT_EPILOGUE_RELU / _GELU).
#pragma once

#define GEMM_ACT_NONE 0
#define GEMM_ACT_RELU 1
#define GEMM_ACT_GELU 2

// NaN propagates (a NaN is not < 0), as torch.relu does; fmaxf would turn it into 0.
__device__ __forceinline__ float relu(float x) { return x < 0.f ? 0.f : x; }

// The tanh approximation of GELU, which is what cuBLASLt's GELU epilogue computes.
// tanhf (not tanh.approx) keeps the error near 1 ulp, well inside the float64 reference's
// tolerance even for bf16/f32 outputs. For |x| large, x^3 overflows to inf and tanh
// saturates to +-1, giving x or -0 as the exact function does. x is clamped below at -16
// (where the result is already -0) keeping a NaN, so that -inf gives -0 and not -inf * 0 =
// NaN, as on the Hopper paths (sm90/epilogue.cuh).
__device__ __forceinline__ float gelu_tanh(float x) {
  const float kSqrt2OverPi = 0.7978845608f;
  const float kCoeff = 0.044715f;
  x = x < -16.f ? -16.f : x;  // NaN is not < -16: it stays NaN
  const float inner = kSqrt2OverPi * (x + kCoeff * x * x * x);
  return 0.5f * x * (1.f + tanhf(inner));
}

__device__ __forceinline__ float apply_activation(float x, int activation) {
  switch (activation) {
    case GEMM_ACT_RELU:
      return relu(x);
    case GEMM_ACT_GELU:
      return gelu_tanh(x);
    default:
      return x;
  }
}
