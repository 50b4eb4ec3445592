/* Drives libdeepgemm_preload.so against the fake cuBLAS/cuBLASLt (fake_cublas*.c): every
 * GEMM entry point is called with supported and unsupported operations, and each call must
 * reach the fake exactly once, with every argument as passed, returning the fake's status.
 *
 * Run by preload/tests/fake_cublas.rs with PRELOAD_TEST_MODE =
 *   direct    no LD_PRELOAD: the fakes alone (checks the test itself);
 *   preload   LD_PRELOAD, no usable GPU: unsupported calls are forwarded after reading only
 *             what decides them; supported ones are tried on deepgemm, which fails
 *             (NOT_INITIALIZED), and are then forwarded;
 *   disabled  LD_PRELOAD with DEEPGEMM_PRELOAD=0: forwarded without reading anything.
 * The Rust test checks the preload's summary (counts per entry point and reason). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_cublas.h"

static int failures;
static int preload_mode; /* substitution on: the preload reads the calls */

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                               \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fputc('\n', stderr);                                                               \
            failures++;                                                                        \
        }                                                                                      \
    } while (0)

#define P(x) ((uint64_t)(uintptr_t)(x))
#define I(x) ((uint64_t)(int64_t)(x))

/* How many reads (Lt attributes or cuBLAS getters) the preload may make for a call. */
enum reads { READS_NONE, READS_TYPES_ONLY, READS_SOME };

static void check_reads(const char *what, long reads, enum reads expect) {
    if (!preload_mode || expect == READS_NONE) {
        CHECK(reads == 0, "%s: %ld reads, expected none", what, reads);
    } else if (expect == READS_TYPES_ONLY) {
        CHECK(reads >= 1 && reads <= 4, "%s: %ld reads, expected only the 4 types", what,
              reads);
    } else {
        CHECK(reads > 0, "%s: no reads, expected the call to be read", what);
    }
}

/* Exactly one GEMM reached the fake since its reset: `name` with arguments `args`. */
static void check_forwarded(const char *what, const struct fake_call *calls, int count,
                            const char *name, int nargs, const uint64_t *args) {
    CHECK(count == 1, "%s: %d calls reached the fake, expected 1", what, count);
    if (count < 1) {
        return;
    }
    CHECK(strcmp(calls[0].name, name) == 0, "%s: the fake's %s was called, not %s", what,
          calls[0].name, name);
    CHECK(calls[0].nargs == nargs, "%s: %d arguments recorded, expected %d", what,
          calls[0].nargs, nargs);
    for (int i = 0; i < nargs && i < calls[0].nargs; i++) {
        CHECK(calls[0].args[i] == args[i], "%s: argument %d reached the fake as %#llx, was %#llx",
              what, i, (unsigned long long)calls[0].args[i], (unsigned long long)args[i]);
    }
}

/* ---------------------------------------------------------------- cuBLASLt */

enum { M = 64, N = 32, K = 128 };
static const void *const DEV_A = (const void *)0x7f0000100000;
static const void *const DEV_B = (const void *)0x7f0000200000;
static const void *const DEV_C = (const void *)0x7f0000300000;
static void *const DEV_D = (void *)0x7f0000400000;
static void *const DEV_BIAS = (void *)0x7f0000500000;
static void *const WORKSPACE = (void *)0x7f0000600000; /* 256-byte aligned */
static cudaStream_t const STREAM = (cudaStream_t)0x5100;

static cublasLtMatmulDesc_t desc(int compute, int scale, int epilogue) {
    cublasLtMatmulDesc_t d = NULL;
    CHECK(cublasLtMatmulDescCreate(&d, compute, scale) == 0, "MatmulDescCreate");
    int t = CUBLAS_OP_T;
    CHECK(cublasLtMatmulDescSetAttribute(d, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t) == 0,
          "TRANSA");
    uint32_t e = (uint32_t)epilogue;
    CHECK(cublasLtMatmulDescSetAttribute(d, CUBLASLT_MATMUL_DESC_EPILOGUE, &e, sizeof e) == 0,
          "EPILOGUE");
    return d;
}

/* A (k x m, "T"), B (k x n), C and D (m x n), column-major. */
struct layouts {
    cublasLtMatrixLayout_t a, b, c, d;
};

static struct layouts layouts(int ab_type, int cd_type, int m) {
    struct layouts l;
    CHECK(cublasLtMatrixLayoutCreate(&l.a, ab_type, K, (uint64_t)m, K) == 0, "layout A");
    CHECK(cublasLtMatrixLayoutCreate(&l.b, ab_type, K, N, K) == 0, "layout B");
    CHECK(cublasLtMatrixLayoutCreate(&l.c, cd_type, (uint64_t)m, N, m > 0 ? m : 1) == 0,
          "layout C");
    CHECK(cublasLtMatrixLayoutCreate(&l.d, cd_type, (uint64_t)m, N, m > 0 ? m : 1) == 0,
          "layout D");
    return l;
}

static void free_lt(cublasLtMatmulDesc_t d, struct layouts l) {
    cublasLtMatmulDescDestroy(d);
    cublasLtMatrixLayoutDestroy(l.a);
    cublasLtMatrixLayoutDestroy(l.b);
    cublasLtMatrixLayoutDestroy(l.c);
    cublasLtMatrixLayoutDestroy(l.d);
}

static void lt_call(const char *what, cublasLtMatmulDesc_t op, struct layouts l, void *d,
                    void *workspace, cublasStatus_t fake_status, enum reads reads) {
    static const float alpha = 1.0f, beta = 0.5f;
    cublasLtMatmulAlgo_t algo = {{1, 2, 3, 4, 5, 6, 7, 8}};
    cublasLtHandle_t h = (cublasLtHandle_t)0x1100;
    size_t ws_size = 1u << 20;
    fake_lt_reset(fake_status);
    cublasStatus_t st = cublasLtMatmul(h, op, &alpha, DEV_A, l.a, DEV_B, l.b, &beta, DEV_C, l.c,
                                       d, l.d, &algo, workspace, ws_size, STREAM);
    CHECK(st == fake_status, "%s: returned %d, the fake returned %d", what, st, fake_status);
    const uint64_t args[16] = {P(h),   P(op),    P(&alpha), P(DEV_A),    P(l.a),    P(DEV_B),
                               P(l.b), P(&beta), P(DEV_C),  P(l.c),      P(d),      P(l.d),
                               P(&algo), P(workspace), (uint64_t)ws_size, P(STREAM)};
    int count;
    const struct fake_call *calls = fake_lt_calls(&count);
    check_forwarded(what, calls, count, "cublasLtMatmul", 16, args);
    check_reads(what, fake_lt_attribute_reads(), reads);
}

/* One cublasLtMatmul scenario: bf16 TN unless `ab_type` says otherwise; `tweak` edits the
 * descriptors before the call. */
static void lt_case(const char *what, int ab_type, int cd_type, int compute, int epilogue,
                    int m, void (*tweak)(cublasLtMatmulDesc_t, struct layouts), void *d,
                    void *workspace, cublasStatus_t fake_status, enum reads reads) {
    cublasLtMatmulDesc_t op = desc(compute, CUDA_R_32F, epilogue);
    struct layouts l = layouts(ab_type, cd_type, m);
    if (tweak) {
        tweak(op, l);
    }
    lt_call(what, op, l, d, workspace, fake_status, reads);
    free_lt(op, l);
}

static void set_bias(cublasLtMatmulDesc_t op, struct layouts l) {
    (void)l;
    void *bias = DEV_BIAS;
    int32_t t = CUDA_R_32F;
    CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias,
                                         sizeof bias) == 0,
          "BIAS_POINTER");
    CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &t, sizeof t) ==
              0,
          "BIAS_DATA_TYPE");
}

static void set_a_scale(cublasLtMatmulDesc_t op, struct layouts l) {
    (void)l;
    void *scale = (void *)0x7f0000700000;
    CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scale,
                                         sizeof scale) == 0,
          "A_SCALE_POINTER");
}

static void set_sm_target(cublasLtMatmulDesc_t op, struct layouts l) {
    (void)l;
    int32_t sms = 100;
    CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, &sms,
                                         sizeof sms) == 0,
          "SM_COUNT_TARGET");
}

static void set_vector_alpha(cublasLtMatmulDesc_t op, struct layouts l) {
    (void)l;
    int32_t mode = CUBLASLT_POINTER_MODE_DEVICE_VECTOR;
    CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_POINTER_MODE, &mode,
                                         sizeof mode) == 0,
          "POINTER_MODE");
}

static void set_col32(cublasLtMatmulDesc_t op, struct layouts l) {
    (void)op;
    int32_t order = CUBLASLT_ORDER_COL32;
    CHECK(cublasLtMatrixLayoutSetAttribute(l.a, CUBLASLT_MATRIX_LAYOUT_ORDER, &order,
                                           sizeof order) == 0,
          "ORDER");
}

/* An attribute a newer cuBLASLt might add (the fake's id 39), set: the preload cannot know
 * what it means, so the call is forwarded. */
static void set_newer(cublasLtMatmulDesc_t op, struct layouts l) {
    (void)l;
    int32_t v = 1;
    CHECK(cublasLtMatmulDescSetAttribute(op, 39, &v, sizeof v) ==
              0,
          "attribute 39");
}

static void lt_cases(void) {
    const int bf = CUDA_R_16BF, f32 = CUDA_R_32F, c32 = CUBLAS_COMPUTE_32F;
    const int def = CUBLASLT_EPILOGUE_DEFAULT;
    /* Supported: deepgemm tries, fails without a GPU, the call is forwarded. */
    lt_case("Lt bf16", bf, bf, c32, def, M, NULL, DEV_D, WORKSPACE, 0, READS_SOME);
    lt_case("Lt bf16 GELU_BIAS fp32 bias", bf, bf, c32, CUBLASLT_EPILOGUE_GELU_BIAS, M, set_bias,
            DEV_D, WORKSPACE, 0, READS_SOME);
    lt_case("Lt bf16, the fake fails", bf, bf, c32, def, M, NULL, DEV_D, WORKSPACE,
            CUBLAS_STATUS_EXECUTION_FAILED, READS_SOME);
    /* Unsupported: forwarded for a reason. */
    lt_case("Lt fp8", CUDA_R_8F_E4M3, bf, c32, def, M, NULL, DEV_D, WORKSPACE, 0,
            READS_TYPES_ONLY);
    lt_case("Lt GELU_AUX", bf, bf, c32, CUBLASLT_EPILOGUE_GELU_AUX, M, NULL, DEV_D, WORKSPACE, 0,
            READS_SOME);
    lt_case("Lt A scale pointer", bf, bf, c32, def, M, set_a_scale, DEV_D, WORKSPACE, 0,
            READS_SOME);
    /* Supported since session 55 (planned for that many SMs): deepgemm tries, fails here. */
    lt_case("Lt SM count target", bf, bf, c32, def, M, set_sm_target, DEV_D, WORKSPACE, 0,
            READS_SOME);
    lt_case("Lt COL32 A", bf, bf, c32, def, M, set_col32, DEV_D, WORKSPACE, 0, READS_SOME);
    lt_case("Lt FAST_16BF", f32, f32, CUBLAS_COMPUTE_32F_FAST_16BF, def, M, NULL, DEV_D,
            WORKSPACE, 0, READS_SOME);
    lt_case("Lt alpha vector", bf, bf, c32, def, M, set_vector_alpha, DEV_D, WORKSPACE, 0,
            READS_SOME);
    lt_case("Lt misaligned D", bf, bf, c32, def, M, NULL, (char *)DEV_D + 1, WORKSPACE, 0,
            READS_SOME);
    lt_case("Lt misaligned workspace", bf, bf, c32, def, M, NULL, DEV_D, (char *)WORKSPACE + 16,
            0, READS_SOME);
    lt_case("Lt m = 0", bf, bf, c32, def, 0, NULL, DEV_D, WORKSPACE, 0, READS_SOME);
    /* NULL descriptor: the real library reports it; nothing is read. */
    struct layouts l = layouts(bf, bf, M);
    lt_call("Lt NULL desc", NULL, l, DEV_D, WORKSPACE, CUBLAS_STATUS_INVALID_VALUE, READS_NONE);
    free_lt(NULL, l);
}

/* ---------------------------------------------------------------- cuBLAS */

static const float F_ALPHA = 1.0f, F_BETA = 0.0f;

static void blas_check(const char *what, cublasStatus_t st, cublasStatus_t fake_status,
                       const char *name, int nargs, const uint64_t *args, enum reads reads) {
    CHECK(st == fake_status, "%s: returned %d, the fake returned %d", what, st, fake_status);
    int count;
    const struct fake_call *calls = fake_blas_calls(&count);
    check_forwarded(what, calls, count, name, nargs, args);
    check_reads(what, fake_blas_getter_calls(), reads);
}

static void gemm_ex(const char *what, cublasHandle_t h, int m, int type, int ctype, int compute,
                    cublasStatus_t fake_status, enum reads reads) {
    fake_blas_reset(fake_status);
    cublasStatus_t st = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_T, m, N, K, &F_ALPHA, DEV_A, type,
                                     M, DEV_B, type, N, &F_BETA, DEV_D, ctype, M, compute,
                                     CUBLAS_GEMM_DEFAULT);
    const uint64_t args[19] = {P(h),     I(CUBLAS_OP_N), I(CUBLAS_OP_T), I(m),       I(N),
                               I(K),     P(&F_ALPHA),    P(DEV_A),       I(type),    I(M),
                               P(DEV_B), I(type),        I(N),           P(&F_BETA), P(DEV_D),
                               I(ctype), I(M),           I(compute),     I(CUBLAS_GEMM_DEFAULT)};
    blas_check(what, st, fake_status, "cublasGemmEx", 19, args, reads);
}

static void strided_ex(const char *what, cublasHandle_t h, int batch, enum reads reads) {
    const int t = CUDA_R_16F;
    fake_blas_reset(0);
    cublasStatus_t st = cublasGemmStridedBatchedEx(
        h, CUBLAS_OP_T, CUBLAS_OP_N, M, N, K, &F_ALPHA, DEV_A, t, K, (long long)M * K, DEV_B, t,
        K, (long long)K * N, &F_BETA, DEV_D, t, M, (long long)M * N, batch, CUBLAS_COMPUTE_32F,
        CUBLAS_GEMM_DEFAULT);
    const uint64_t args[23] = {
        P(h),         I(CUBLAS_OP_T),         I(CUBLAS_OP_N),         I(M),  I(N),
        I(K),         P(&F_ALPHA),            P(DEV_A),               I(t),  I(K),
        I(M * K),     P(DEV_B),               I(t),                   I(K),  I(K * N),
        P(&F_BETA),   P(DEV_D),               I(t),                   I(M),  I(M * N),
        I(batch),     I(CUBLAS_COMPUTE_32F), I(CUBLAS_GEMM_DEFAULT)};
    blas_check(what, st, 0, "cublasGemmStridedBatchedEx", 23, args, reads);
}

static void sgemm(const char *what, cublasHandle_t h, enum reads reads) {
    fake_blas_reset(0);
    const float *A = DEV_A, *B = DEV_B;
    float *C = DEV_D;
    cublasStatus_t st = cublasSgemm_v2(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &F_ALPHA, A, M, B, K,
                                       &F_BETA, C, M);
    const uint64_t args[14] = {P(h), I(0), I(0), I(M), I(N),       I(K), P(&F_ALPHA),
                               P(A), I(M), P(B), I(K), P(&F_BETA), P(C), I(M)};
    blas_check(what, st, 0, "cublasSgemm_v2", 14, args, reads);
}

static void blas_cases(void) {
    cublasHandle_t h = NULL, hdev = NULL, htarget = NULL;
    CHECK(cublasCreate_v2(&h) == 0 && cublasCreate_v2(&hdev) == 0 &&
              cublasCreate_v2(&htarget) == 0,
          "cublasCreate");
    cublasSetStream_v2(h, STREAM);
    {
        /* Forwarded untouched, with the real status; the preload notes h's workspace, which
         * its substituted classic GEMMs on h then use (none run here: no GPU). */
        fake_blas_reset(0);
        cublasStatus_t st = cublasSetWorkspace_v2(h, WORKSPACE, 4 << 20);
        const uint64_t args[3] = {P(h), P(WORKSPACE), I(4 << 20)};
        blas_check("SetWorkspace", st, 0, "cublasSetWorkspace_v2", 3, args, READS_NONE);
        fake_blas_reset(0);
        st = cublasSetWorkspace_v2(NULL, WORKSPACE, 256);
        const uint64_t null_args[3] = {P(NULL), P(WORKSPACE), I(256)};
        blas_check("SetWorkspace, NULL handle", st, CUBLAS_STATUS_NOT_INITIALIZED,
                   "cublasSetWorkspace_v2", 3, null_args, READS_NONE);
    }
    cublasSetPointerMode_v2(hdev, CUBLAS_POINTER_MODE_DEVICE);
    cublasSetSmCountTarget(htarget, 8);
    const int bf = CUDA_R_16BF, c32 = CUBLAS_COMPUTE_32F;

    gemm_ex("GemmEx bf16", h, M, bf, bf, c32, 0, READS_SOME);
    gemm_ex("GemmEx bf16, device pointer mode", hdev, M, bf, bf, c32, 0, READS_SOME);
    gemm_ex("GemmEx bf16, the fake fails", h, M, bf, bf, c32, CUBLAS_STATUS_INTERNAL_ERROR,
            READS_SOME);
    gemm_ex("GemmEx int8", h, M, CUDA_R_8I, CUDA_R_32I, CUBLAS_COMPUTE_32I, 0, READS_NONE);
    gemm_ex("GemmEx m = -1", h, -1, bf, bf, c32, CUBLAS_STATUS_INVALID_VALUE, READS_SOME);
    gemm_ex("GemmEx SM count target", htarget, M, bf, bf, c32, 0, READS_SOME);
    gemm_ex("GemmEx fp16 FAST_16F", h, M, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F_FAST_16F, 0,
            READS_NONE);

    strided_ex("GemmStridedBatchedEx fp16", h, 4, READS_SOME);
    strided_ex("GemmStridedBatchedEx batch 0", h, 0, READS_SOME);

    cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);
    sgemm("Sgemm TF32 allowed", h, READS_SOME);
    cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
    sgemm("Sgemm exact", h, READS_SOME);
    cublasSetMathMode(h, CUBLAS_TENSOR_OP_MATH); /* fp32 becomes FAST_16F: not deepgemm's */
    sgemm("Sgemm TENSOR_OP_MATH", h, READS_SOME);
    cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);

    {
        fake_blas_reset(0);
        const float *A = DEV_A, *B = DEV_B;
        float *C = DEV_D;
        cublasStatus_t st = cublasSgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_T, M, N, K,
                                                      &F_ALPHA, A, K, 1 << 20, B, N, 1 << 20,
                                                      &F_BETA, C, M, 1 << 20, 3);
        const uint64_t args[18] = {P(h),        I(1),     I(1), I(M),     I(N),      I(K),
                                   P(&F_ALPHA), P(A),     I(K), I(1 << 20), P(B),    I(N),
                                   I(1 << 20),  P(&F_BETA), P(C), I(M),    I(1 << 20), I(3)};
        blas_check("SgemmStridedBatched", st, 0, "cublasSgemmStridedBatched", 18, args,
                   READS_SOME);
    }
    {
        fake_blas_reset(0);
        const uint16_t one = 0x3c00, zero = 0;
        const uint16_t *A = DEV_A, *B = DEV_B;
        uint16_t *C = DEV_D;
        cublasStatus_t st =
            cublasHgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &one, A, M, B, K, &zero, C, M);
        const uint64_t args[14] = {P(h), I(0), I(0), I(M), I(N),    I(K), P(&one),
                                   P(A), I(M), P(B), I(K), P(&zero), P(C), I(M)};
        blas_check("Hgemm", st, 0, "cublasHgemm", 14, args, READS_NONE);
    }
    {
        fake_blas_reset(0);
        const void *const a_arr[2] = {DEV_A, DEV_B};
        const void *const b_arr[2] = {DEV_B, DEV_A};
        void *const c_arr[2] = {DEV_D, DEV_BIAS};
        cublasStatus_t st = cublasGemmBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &F_ALPHA,
                                                a_arr, bf, M, b_arr, bf, K, &F_BETA, c_arr, bf, M,
                                                2, c32, CUBLAS_GEMM_DEFAULT);
        const uint64_t args[20] = {P(h),    I(0), I(0), I(M),       I(N),     I(K),  P(&F_ALPHA),
                                   P(a_arr), I(bf), I(M), P(b_arr), I(bf),    I(K),  P(&F_BETA),
                                   P(c_arr), I(bf), I(M), I(2),     I(c32),   I(CUBLAS_GEMM_DEFAULT)};
        blas_check("GemmBatchedEx", st, 0, "cublasGemmBatchedEx", 20, args, READS_NONE);
    }
    {
        /* The fake cuBLAS calls cublasLtMatmul inside a forwarded GemmEx: the preload must
         * forward that inner call without deciding it (no descriptor read), once. */
        fake_blas_call_lt_inside(1);
        fake_lt_reset(0);
        gemm_ex("GemmEx int8, cuBLASLt called inside", h, M, CUDA_R_8I, CUDA_R_32I,
                CUBLAS_COMPUTE_32I, 0, READS_NONE);
        fake_blas_call_lt_inside(0);
        int count;
        const struct fake_call *calls = fake_lt_calls(&count);
        CHECK(count == 1 && strcmp(calls[0].name, "cublasLtMatmul") == 0,
              "inner cublasLtMatmul: %d calls reached the fake cuBLASLt", count);
        CHECK(fake_lt_attribute_reads() == 0, "inner cublasLtMatmul: %ld attribute reads",
              fake_lt_attribute_reads());
    }
    cublasDestroy_v2(hdev);
    cublasDestroy_v2(htarget);
    /* Forwarded untouched (the preload forgets h's workspace first). */
    fake_blas_reset(0);
    cublasStatus_t st = cublasDestroy_v2(h);
    const uint64_t args[1] = {P(h)};
    blas_check("Destroy", st, 0, "cublasDestroy_v2", 1, args, READS_NONE);
}

int main(void) {
    const char *mode = getenv("PRELOAD_TEST_MODE");
    if (mode == NULL || (strcmp(mode, "direct") != 0 && strcmp(mode, "preload") != 0 &&
                         strcmp(mode, "disabled") != 0)) {
        fprintf(stderr, "set PRELOAD_TEST_MODE to direct, preload or disabled\n");
        return 2;
    }
    preload_mode = strcmp(mode, "preload") == 0;
    lt_cases();
    blas_cases();
    /* Last, so that the logged calls before it keep their places. */
    lt_case("Lt newer attribute", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F,
            CUBLASLT_EPILOGUE_DEFAULT, M, set_newer, DEV_D, WORKSPACE, 0, READS_SOME);
    if (failures) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    printf("all checks passed (%s)\n", mode);
    return 0;
}
