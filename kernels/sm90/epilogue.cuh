// The fused epilogue: D = act(alpha * acc + beta * C + bias[row]), straight from the wgmma
// accumulator registers to global memory.
#pragma once

#include "sm90/types.cuh"

namespace dg_sm90 {

// The tanh approximation, which is what cuBLASLt's GELU epilogues compute. tanhf rather than
// tanh.approx keeps the error near an ulp of fp32.
__device__ __forceinline__ float gelu_tanh(float x) {
  const float kSqrt2OverPi = 0.7978845608028654f;
  const float kCoeff = 0.044715f;
  return 0.5f * x * (1.f + tanhf(kSqrt2OverPi * (x + kCoeff * x * x * x)));
}

__device__ __forceinline__ float activate(float x, int activation) {
  if (activation == SM90_ACT_RELU) {
    return x < 0.f ? 0.f : x;  // a NaN stays NaN, as torch.relu (fmaxf would return 0)
  }
  if (activation == SM90_ACT_GELU) {
    return gelu_tanh(x);
  }
  return x;
}

// Writes one consumer warpgroup's 64 x N accumulator tile. Fragment layout (PTX ISA "wgmma
// .m64nNk16 register fragment layout for accumulator matrix D"): warp w of the warpgroup holds
// rows 16w..16w+15; in lane l, acc[4t + 2h + e] is row 16w + l/4 + 8h, column 8t + 2(l%4) + e.
// `row0` / `col0` are this lane's first global row and column (h = 0, t = 0, e = 0).
// Rows >= m and columns >= n (the tile's share of the matrix edge) are skipped.
//
// Each thread reads C exactly where it writes D, so C may alias D.
template <typename OutT, int kAccRegs>
__device__ __forceinline__ void epilogue_store(const float (&acc)[kAccRegs], const Sm90Params& p,
                                               float alpha, float beta, long long row0,
                                               long long col0, long long batch) {
  OutT* d = static_cast<OutT*>(p.d) + batch * p.d_bs;
  const OutT* c = static_cast<const OutT*>(p.c);  // may be null when beta == 0
  const bool has_bias = (p.flags & SM90_FLAG_BIAS) != 0;
  const bool read_c = beta != 0.f;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const long long row = row0 + 8 * h;
    if (row >= p.m) {
      continue;
    }
    float bias = 0.f;
    if (has_bias) {
      const long long at = batch * p.bias_bs + row;
      bias = (p.flags & SM90_FLAG_BIAS_F32) ? static_cast<const float*>(p.bias)[at]
                                            : to_f32(static_cast<const OutT*>(p.bias)[at]);
    }
    OutT* d_row = d + row * p.d_ms;
    const long long c_row = batch * p.c_bs + row * p.c_ms;
#pragma unroll
    for (int t = 0; t < kAccRegs / 4; ++t) {
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        const long long col = col0 + 8 * t + e;
        if (col < p.n) {
          float v = alpha * acc[4 * t + 2 * h + e];
          if (read_c) {
            v += beta * to_f32(c[c_row + col * p.c_ns]);
          }
          if (has_bias) {
            v += bias;
          }
          d_row[col * p.d_ns] = FromF32<OutT>::convert(activate(v, p.activation));
        }
      }
    }
  }
}

}  // namespace dg_sm90
