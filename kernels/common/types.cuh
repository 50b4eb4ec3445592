// Element types. NVRTC gets no toolkit headers (no cuda_fp16.h / cuda_bf16.h), so the 16-bit
// types are plain storage structs and every conversion goes through fp32.
#pragma once

#include "ptx/cvt.cuh"

// IEEE binary16, as stored in memory.
struct half_t {
  unsigned short bits;
};

// bfloat16: the upper 16 bits of an IEEE binary32.
struct bf16_t {
  unsigned short bits;
};

static_assert(sizeof(half_t) == 2 && alignof(half_t) == 2, "half_t must be 2 bytes");
static_assert(sizeof(bf16_t) == 2 && alignof(bf16_t) == 2, "bf16_t must be 2 bytes");

__device__ __forceinline__ float to_float(float x) { return x; }
__device__ __forceinline__ float to_float(half_t x) { return cvt_f32_f16(x.bits); }
// Exact: bf16 is a truncated f32, so widening is a shift.
__device__ __forceinline__ float to_float(bf16_t x) {
  return __uint_as_float(static_cast<unsigned>(x.bits) << 16);
}

template <typename T>
__device__ __forceinline__ T from_float(float x);

template <>
__device__ __forceinline__ float from_float<float>(float x) {
  return x;
}

template <>
__device__ __forceinline__ half_t from_float<half_t>(float x) {
  return half_t{cvt_rn_f16_f32(x)};
}

// Round to nearest even by integer arithmetic, so that one code path serves every
// architecture (cvt.rn.bf16.f32 only exists from sm_80). Adding 0x7fff plus the lowest kept
// bit rounds ties to even; a carry out of the mantissa correctly bumps the exponent (and
// rounds the largest finite values to inf, as cvt.rn does). NaN is handled first because
// the addition could carry a NaN's payload into inf: keep the sign, force a quiet NaN.
template <>
__device__ __forceinline__ bf16_t from_float<bf16_t>(float x) {
  const unsigned u = __float_as_uint(x);
  if ((u & 0x7fffffffu) > 0x7f800000u) {
    return bf16_t{static_cast<unsigned short>((u >> 16) | 0x0040u)};
  }
  const unsigned rounded = u + 0x7fffu + ((u >> 16) & 1u);
  return bf16_t{static_cast<unsigned short>(rounded >> 16)};
}
