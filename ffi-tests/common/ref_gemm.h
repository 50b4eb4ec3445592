/*
 * The CPU reference for the consumer programs' GEMMs (C, C++ and, through cgo, Go):
 * column-major D = alpha * op(A) * op(B) + beta * C (+ bias per row), accumulated in double
 * over the values as stored (already rounded to their types), and the relative Frobenius
 * error of a result against it, with the tolerances tests/common/host.rs uses for the Rust
 * GPU tests. Header-only, C99 and C++ alike, no dependencies beyond the C library.
 */
#ifndef DEEPGEMM_REF_GEMM_H
#define DEEPGEMM_REF_GEMM_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element types the references handle; 16-bit values are stored as uint16_t. */
typedef enum ref_dtype { REF_F32, REF_F16, REF_BF16 } ref_dtype;

static inline size_t ref_dtype_size(ref_dtype t) { return t == REF_F32 ? 4 : 2; }

static inline uint32_t ref_f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float ref_bits_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* bfloat16: the high half of an fp32, rounded to nearest even (NaN kept a quiet NaN). */
static inline uint16_t ref_f32_to_bf16(float f) {
    uint32_t u = ref_f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

static inline float ref_bf16_to_f32(uint16_t h) { return ref_bits_f32((uint32_t)h << 16); }

/* IEEE binary16, rounded to nearest even, with subnormals, overflow to infinity and NaN. */
static inline uint16_t ref_f32_to_f16(float f) {
    uint32_t u = ref_f32_bits(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t abs = u & 0x7fffffffu;
    if (abs > 0x7f800000u) return (uint16_t)(sign | 0x7e00u);
    if (abs >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* rounds to >= 65520: inf */
    if (abs < 0x38800000u) {
        /* Subnormal (or zero) in half: the value in units of 2^-24, rounded to even. */
        if (abs < 0x33000000u) return sign; /* below half of the smallest subnormal */
        uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
        int shift = 126 - (int)(abs >> 23); /* 14..24: from 2^(e-23) units to 2^-24 */
        uint32_t q = mant >> shift, rem = mant & ((1u << shift) - 1u), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (q & 1u))) q++;
        return (uint16_t)(sign | q);
    }
    uint32_t h = ((abs >> 13) - (112u << 10)); /* rebias the exponent: 127 - 15 = 112 */
    uint32_t rem = abs & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++;
    return (uint16_t)(sign | h);
}

static inline float ref_f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    if (exp == 0) return (sign ? -1.0f : 1.0f) * (float)mant * 5.9604644775390625e-8f; /* 2^-24 */
    if (exp == 31) return ref_bits_f32(sign | 0x7f800000u | (mant << 13));
    return ref_bits_f32(sign | ((exp + 112u) << 23) | (mant << 13));
}

static inline double ref_load(ref_dtype t, const void *buf, size_t i) {
    if (t == REF_F32) return ((const float *)buf)[i];
    uint16_t h = ((const uint16_t *)buf)[i];
    return t == REF_F16 ? ref_f16_to_f32(h) : ref_bf16_to_f32(h);
}

static inline void ref_store(ref_dtype t, void *buf, size_t i, double v) {
    if (t == REF_F32)
        ((float *)buf)[i] = (float)v;
    else
        ((uint16_t *)buf)[i] = t == REF_F16 ? ref_f32_to_f16((float)v) : ref_f32_to_bf16((float)v);
}

/* Fills n elements with values in [-1, 1) from a 64-bit LCG (Knuth's MMIX constants), so
 * every language's consumer can make the same data from the same seed. */
static inline void ref_fill(uint64_t *state, ref_dtype t, void *buf, size_t n) {
    for (size_t i = 0; i < n; i++) {
        *state = *state * 6364136223846793005ull + 1442695040888963407ull;
        double v = (double)(*state >> 40) / (double)(1ull << 24) * 2.0 - 1.0;
        ref_store(t, buf, i, v);
    }
}

/*
 * out[i + j*m] = alpha * sum_k op(A)(i,k) op(B)(k,j) + beta * C(i,j) + bias[i], column-major
 * as cuBLAS: op(A) is m x k (A stored k x m when transa), op(B) is k x n. C is not read when
 * beta == 0 (it may hold anything, as in cuBLAS); bias may be NULL.
 */
static inline void ref_gemm(int transa, int transb, int64_t m, int64_t n, int64_t k, double alpha,
                            ref_dtype ab, const void *A, int64_t lda, const void *B, int64_t ldb,
                            double beta, ref_dtype cd, const void *C, int64_t ldc,
                            const double *bias, double *out) {
    for (int64_t j = 0; j < n; j++) {
        for (int64_t i = 0; i < m; i++) {
            double acc = 0.0;
            for (int64_t p = 0; p < k; p++) {
                size_t ai = (size_t)(transa ? p + i * lda : i + p * lda);
                size_t bi = (size_t)(transb ? j + p * ldb : p + j * ldb);
                acc += ref_load(ab, A, ai) * ref_load(ab, B, bi);
            }
            double v = alpha * acc;
            if (beta != 0.0) v += beta * ref_load(cd, C, (size_t)(i + j * ldc));
            if (bias) v += bias[i];
            out[i + j * m] = v;
        }
    }
}

/* ||D - ref|| / ||ref|| over the m x n result (D column-major with leading dimension ldd);
 * INFINITY when D holds a NaN or infinity. */
static inline double ref_rel_error(ref_dtype cd, const void *D, int64_t ldd, const double *ref,
                                   int64_t m, int64_t n) {
    double num = 0.0, den = 0.0;
    for (int64_t j = 0; j < n; j++) {
        for (int64_t i = 0; i < m; i++) {
            double d = ref_load(cd, D, (size_t)(i + j * ldd)), r = ref[i + j * m];
            if (!isfinite(d)) return INFINITY;
            num += (d - r) * (d - r);
            den += r * r;
        }
    }
    return den > 0.0 ? sqrt(num / den) : sqrt(num);
}

/* Allowed relative error (tests/common/host.rs): fp32 exact 1e-5, 16-bit inputs with an fp32
 * result 1e-3, a 16-bit result 1e-2. */
static inline double ref_tolerance(ref_dtype ab, ref_dtype cd) {
    if (ab == REF_F32) return 1e-5;
    return cd == REF_F32 ? 1e-3 : 1e-2;
}

#ifdef __cplusplus
}
#endif

#endif /* DEEPGEMM_REF_GEMM_H */
