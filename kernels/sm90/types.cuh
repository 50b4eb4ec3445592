// Element types and the host-visible parameter block of the sm90 GEMM.
//
// NVRTC gets no toolkit headers, so the 16-bit floats are storage structs and every conversion
// goes through fp32 (ptx/cvt16.cuh). The names live in namespace dg_sm90 so that this file can
// sit beside common/types.cuh in one translation unit.
#pragma once

#include "ptx/cvt16.cuh"
#include "ptx/cvt16x2.cuh"
#include "ptx/special.cuh"
#include "ptx/wgmma.cuh"

namespace dg_sm90 {

struct Bf16 {
  unsigned short bits;
};
struct Half {
  unsigned short bits;
};
static_assert(sizeof(Bf16) == 2 && sizeof(Half) == 2, "16-bit storage types");

__device__ __forceinline__ float to_f32(float x) { return x; }
__device__ __forceinline__ float to_f32(Half x) { return cvt16_f16_to_f32(x.bits); }
// Exact: a bf16 is the upper half of an fp32.
__device__ __forceinline__ float to_f32(Bf16 x) {
  return __uint_as_float(static_cast<unsigned>(x.bits) << 16);
}

template <typename T>
struct FromF32;
template <>
struct FromF32<float> {
  __device__ __forceinline__ static float convert(float x) { return x; }
};
template <>
struct FromF32<Half> {
  __device__ __forceinline__ static Half convert(float x) { return Half{cvt16_f32_to_f16(x)}; }
};
template <>
struct FromF32<Bf16> {
  __device__ __forceinline__ static Bf16 convert(float x) { return Bf16{cvt16_f32_to_bf16(x)}; }
};

// Two fp32 values as one register of two 16-bit outputs (lo in the low half), the element
// order of a stmatrix fragment. Only the 16-bit output types have it.
template <typename T>
struct Pack2;
template <>
struct Pack2<Bf16> {
  __device__ __forceinline__ static unsigned convert(float lo, float hi) {
    return cvt16x2_f32_to_bf16x2(lo, hi);
  }
};
template <>
struct Pack2<Half> {
  __device__ __forceinline__ static unsigned convert(float lo, float hi) {
    return cvt16x2_f32_to_f16x2(lo, hi);
  }
};

// One register of two 16-bit values (lo in the low half) as two fp32 values: Pack2's inverse,
// for C read back from a stmatrix-layout buffer (ldmatrix).
template <typename T>
struct Unpack2;
template <>
struct Unpack2<Bf16> {
  __device__ __forceinline__ static void convert(unsigned r, float& lo, float& hi) {
    cvt16x2_bf16x2_to_f32(r, lo, hi);
  }
};
template <>
struct Unpack2<Half> {
  __device__ __forceinline__ static void convert(unsigned r, float& lo, float& hi) {
    cvt16x2_f16x2_to_f32(r, lo, hi);
  }
};

// Input types wgmma can multiply here and the instruction form each takes. fp32 inputs are
// multiplied as tf32 (COMPUTE_32F_FAST_TF32); that form reads K-major operands only.
template <typename T>
struct MmaInput;
template <>
struct MmaInput<Bf16> {
  static constexpr WgmmaInput kInput = kWgmmaBf16;
  static constexpr bool kMnMajor = true;
};
template <>
struct MmaInput<Half> {
  static constexpr WgmmaInput kInput = kWgmmaF16;
  static constexpr bool kMnMajor = true;
};
template <>
struct MmaInput<float> {
  static constexpr WgmmaInput kInput = kWgmmaTf32;
  static constexpr bool kMnMajor = false;
};

// cuda.h's CUtensorMap, opaque: 128 bytes, 64-byte aligned (TMA reads it from the parameter
// space; the driver writes it with cuTensorMapEncodeTiled, see src/runtime/tensor_map.rs).
struct alignas(64) TmaDescriptor {
  unsigned long long opaque[16];
};
static_assert(sizeof(TmaDescriptor) == 128, "CUtensorMap is 128 bytes");

#define SM90_FLAG_BIAS 1
#define SM90_FLAG_BIAS_F32 2
// D suits the TMA-store epilogue (16-bit type, 16-byte aligned address and strides) and the
// third tensor map describes it; taken when beta is 0 (read at run time: it may be a device
// scalar). Set by the host per launch (src/runtime/tensor_map.rs), so one binary has both paths.
#define SM90_FLAG_TMA_STORE 4
// With SM90_FLAG_TMA_STORE: D is row-major (unit stride along n); otherwise column-major.
#define SM90_FLAG_D_ROW_MAJOR 8

// The bias runs along n (one value per column of D): set for a swapped problem, whose kernel
// columns are the caller's rows. The general epilogue adds it on tiles up to 64 wide
// (src/plan/sm90.rs MAX_BIAS_ALONG_N_TILE, `kCanBiasCol`), the TMA-store one on 128-row tiles
// up to 240 wide (gemm.cuh `TmaBiasCol`, staged in shared memory: store.cuh `stage_bias_cols`).
#define SM90_FLAG_BIAS_COL 16

// Every element of A (B) is loaded once: one tile column (row) covers n (m). The producer
// then loads them with an L2 evict_first policy, so the stream replaces itself instead of
// what else L2 holds (session 12: up to 10% at M <= 128 with the L2 flushed by a memset,
// whose dirty lines the loads would otherwise evict). Set by the host (`Sm90Params::set_tiles`).
#define SM90_FLAG_STREAM_A 32
#define SM90_FLAG_STREAM_B 64

// With SM90_FLAG_TMA_STORE and beta != 0: C has D's layout, 16-byte aligned address and
// strides, and the fourth tensor map describes it (box as D's). The TMA-store epilogue then
// loads C's boxes by TMA into the staging buffers D's boxes are stored from (sm90/store.cuh);
// without it beta != 0 takes the general epilogue.
#define SM90_FLAG_C_TMA 128

// With SM90_FLAG_TMA_STORE at a width that is not a multiple of 64, and without
// SM90_FLAG_C_TMA: the fourth tensor map is D's with whole 64 x 64 boxes in the 128-byte
// swizzle, and the tile's whole boxes are stored through it, one store a box (sm90/store.cuh).
// Its last, partial box goes through D's map: for a row-major D (at a multiple of 16) in
// 16-column slabs (a slab store writes 32 bytes a row, a quarter of a whole box's); for a
// column-major D in one store, D's map then having that box's width (BLOCK_N % 64 columns).
#define SM90_FLAG_D_BOXES 256

#define SM90_ACT_NONE 0
#define SM90_ACT_RELU 1
#define SM90_ACT_GELU 2

// A divisor prepared on the host (`FastDiv` in src/runtime/tensor_map.rs): x / d by a multiply
// and a shift, for 0 <= x < 2^31 and 1 <= d < 2^31. A plain integer division is ~25 dependent
// instructions, and the scheduler's sat on the path from the kernel's entry to its first load.
struct FastDiv {
  unsigned mul;
  unsigned shift;

  __device__ __forceinline__ int div(int x) const {
    const unsigned ux = static_cast<unsigned>(x);
    return static_cast<int>((mul_hi_u32(ux, mul) + ux) >> shift);
  }
};

// Everything the kernel needs besides the tensor maps (which carry A's, B's and, for the
// TMA-store epilogue, D's addresses, extents and strides). Mirrors `Sm90Params` in
// src/runtime/tensor_map.rs field for field: 8-byte fields first, then 4-byte ones, so both layouts agree without padding rules.
// Element (i, j) of batch b of C is c[b*c_bs + i*c_ms + j*c_ns]; likewise D; bias[b*bias_bs + i].
struct Sm90Params {
  const void* c;  // may alias d; not read when beta == 0
  void* d;
  const void* bias;        // per row of D (length m); D's type, or fp32 with SM90_FLAG_BIAS_F32
  const float* alpha_ptr;  // non-null in pointer mode DEVICE: alpha is read here
  const float* beta_ptr;
  // Stream-K fixup (sk_tiles > 0): the flags (see `epoch`), then the partial tiles
  // (see StreamKWorkspace). Null when sk_tiles == 0.
  void* workspace;
  long long m, n, k, batch;
  long long c_ms, c_ns, c_bs;
  long long d_ms, d_ns, d_bs;
  long long bias_bs;
  long long sk_tiles;  // tiles of the Stream-K phase (WorkSchedule); 0: data-parallel only
  // This launch's tag for the Stream-K flags (never 0, unique per launch in the process): a
  // contributor raises its flag to it, the owner waits for it and clears the flag to 0 again.
  // So the workspace needs no clearing before a launch (no memset on the stream): a flag left
  // by another process or library equals it with probability 2^-64, and every flag a launch
  // raises its owner clears in the same launch, which is what lets a graph replay (the same
  // epoch again) find its flags at 0.
  unsigned long long epoch;
  float alpha, beta;
  int activation;  // SM90_ACT_*
  int flags;       // SM90_FLAG_*
  int group_m;     // tile rows per L2 group of the scheduler (>= 1)
  int sk_ctas;     // CTAs sharing the Stream-K phase (<= gridDim.x; >= 1)
  // The scheduler's counts and divisors, computed by the host for the variant
  // (`Sm90Params::set_tiles`): tile rows (of BLOCK_M x cluster rows), tile columns, tiles per
  // batch, all tiles, k-iterations per tile; Stream-K iterations per CTA and the remainder.
  int tiles_m, tiles_n, tiles_per_batch, num_tiles, k_iters;
  int sk_base, sk_rem, pad;
  // Divisors: k_iters, tiles_per_batch, group_m x tiles_n, group_m, the last group's rows.
  FastDiv div_k_iters, div_tiles_per_batch, div_group, div_group_m, div_last_rows;
};
static_assert(sizeof(Sm90Params) == 6 * 8 + 13 * 8 + 6 * 4 + 8 * 4 + 5 * 8,
              "Sm90Params layout must match src/runtime/tensor_map.rs");

// Diagnostic builds only (DEEPGEMM_NVRTC_DEFINES=DG_FORCE_DOWN_LANES): every column-major D
// takes the staged epilogue's stores down the columns, aligned or not, so that path can be
// timed against itself on an aligned D (is it the instructions or the misaligned sectors?).
#ifdef DG_FORCE_DOWN_LANES
constexpr bool kForceDownLanes = true;
#else
constexpr bool kForceDownLanes = false;
#endif

// The Stream-K workspace: one 8-byte flag per (CTA, consumer warpgroup), then each such pair's partial
// 64 x BLOCK_N fp32 tile (the accumulator registers in fragment order, sm90/epilogue.cuh
// `partial_offset`).
// src/plan/streamk.rs `Decomposition::workspace_bytes` mirrors the sizes.
struct StreamKWorkspace {
  static constexpr unsigned kConsumers = 2;
  __device__ __forceinline__ static unsigned long long flag_bytes(int sk_ctas) {
    return (static_cast<unsigned long long>(sk_ctas) * kConsumers * 8 + 255) / 256 * 256;
  }
  __device__ __forceinline__ static unsigned long long* flag(void* ws, int cta, int consumer) {
    return static_cast<unsigned long long*>(ws) + cta * kConsumers + consumer;
  }
  // Slot of (cta, consumer): `slot_floats` (64 x BLOCK_N) floats each.
  __device__ __forceinline__ static float* partial(void* ws, int sk_ctas, int cta, int consumer,
                                                   long long slot_floats) {
    return reinterpret_cast<float*>(static_cast<unsigned char*>(ws) + flag_bytes(sk_ctas)) +
           static_cast<long long>(cta * kConsumers + consumer) * slot_floats;
  }
};

}  // namespace dg_sm90
