// The parameter block every portable kernel takes by value. Mirrors src/jit/params.rs
// field for field (all 8-byte fields, then four 4-byte ones: no padding rules involved).
#pragma once

struct GemmParams {
  const void* a;
  const void* b;
  const void* c;
  void* d;
  const void* bias;
  const float* alpha_ptr;  // non-null in pointer mode DEVICE: read alpha here
  const float* beta_ptr;
  long long m, n, k, batch;
  long long a_ms, a_ks, a_bs;  // op(A)(i, kk) = a[i*a_ms + kk*a_ks + batch*a_bs]
  long long b_ks, b_ns, b_bs;  // op(B)(kk, j) = b[kk*b_ks + j*b_ns + batch*b_bs]
  long long c_ms, c_ns, c_bs;
  long long d_ms, d_ns, d_bs;
  long long bias_bs;
  float alpha, beta;
  int activation;  // 0 none, 1 ReLU, 2 GELU (tanh approximation)
  int flags;       // GEMM_FLAG_* bits
};

#define GEMM_FLAG_BIAS 1
#define GEMM_FLAG_BIAS_F32 2

static_assert(sizeof(GemmParams) == 24 * 8 + 4 * 4, "GemmParams layout must match src/jit/params.rs");
