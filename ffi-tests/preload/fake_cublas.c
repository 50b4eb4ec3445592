/* A stand-in for libcublas.so.13: handles with a stream, pointer mode, math mode and SM
 * count target, and GEMMs that record their arguments and return the status set by
 * fake_blas_reset. */
#include <stdlib.h>

#include "fake_record.h"

struct fake_blas_handle {
    cudaStream_t stream;
    int pointer_mode;
    int math_mode;
    int sm_count_target;
};

static struct fake_log LOG;
static long GETTERS;
static cublasStatus_t GEMM_STATUS;
static int CALL_LT_INSIDE;

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle) {
    if (handle == NULL) {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    *handle = calloc(1, sizeof **handle);
    return *handle ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INTERNAL_ERROR;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
    fake_record(&LOG, "cublasDestroy_v2", 1, P(handle));
    free(handle);
    return CUBLAS_STATUS_SUCCESS;
}

/* Recorded like the GEMMs: the preload forwards it after noting the handle's workspace. */
cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void *workspace,
                                     size_t workspaceSizeInBytes) {
    fake_record(&LOG, "cublasSetWorkspace_v2", 3, P(handle), P(workspace),
                I(workspaceSizeInBytes));
    return handle == NULL ? CUBLAS_STATUS_NOT_INITIALIZED : CUBLAS_STATUS_SUCCESS;
}

#define SETTER(fn, type, field)                                                                \
    cublasStatus_t fn(cublasHandle_t handle, type v) {                                        \
        if (handle == NULL) {                                                                  \
            return CUBLAS_STATUS_NOT_INITIALIZED;                                              \
        }                                                                                      \
        handle->field = v;                                                                     \
        return CUBLAS_STATUS_SUCCESS;                                                          \
    }
#define GETTER(fn, type, field)                                                                \
    cublasStatus_t fn(cublasHandle_t handle, type *v) {                                       \
        GETTERS++;                                                                             \
        if (handle == NULL || v == NULL) {                                                     \
            return CUBLAS_STATUS_NOT_INITIALIZED;                                              \
        }                                                                                      \
        *v = handle->field;                                                                    \
        return CUBLAS_STATUS_SUCCESS;                                                          \
    }
SETTER(cublasSetStream_v2, cudaStream_t, stream)
GETTER(cublasGetStream_v2, cudaStream_t, stream)
SETTER(cublasSetPointerMode_v2, int, pointer_mode)
GETTER(cublasGetPointerMode_v2, int, pointer_mode)
SETTER(cublasSetMathMode, int, math_mode)
GETTER(cublasGetMathMode, int, math_mode)
SETTER(cublasSetSmCountTarget, int, sm_count_target)
GETTER(cublasGetSmCountTarget, int, sm_count_target)

cublasStatus_t cublasGemmEx(cublasHandle_t handle, int transa, int transb, int m, int n, int k,
                            const void *alpha, const void *A, int Atype, int lda, const void *B,
                            int Btype, int ldb, const void *beta, void *C, int Ctype, int ldc,
                            int computeType, int algo) {
    if (CALL_LT_INSIDE) {
        cublasLtMatmul(NULL, NULL, alpha, A, NULL, B, NULL, beta, C, NULL, C, NULL, NULL, NULL, 0,
                       NULL);
    }
    fake_record(&LOG, "cublasGemmEx", 19, P(handle), I(transa), I(transb), I(m), I(n), I(k),
                P(alpha), P(A), I(Atype), I(lda), P(B), I(Btype), I(ldb), P(beta), P(C),
                I(Ctype), I(ldc), I(computeType), I(algo));
    return GEMM_STATUS;
}

cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, int transa, int transb, int m,
                                          int n, int k, const void *alpha, const void *A,
                                          int Atype, int lda, long long strideA, const void *B,
                                          int Btype, int ldb, long long strideB,
                                          const void *beta, void *C, int Ctype, int ldc,
                                          long long strideC, int batchCount, int computeType,
                                          int algo) {
    fake_record(&LOG, "cublasGemmStridedBatchedEx", 23, P(handle), I(transa), I(transb), I(m),
                I(n), I(k), P(alpha), P(A), I(Atype), I(lda), I(strideA), P(B), I(Btype), I(ldb),
                I(strideB), P(beta), P(C), I(Ctype), I(ldc), I(strideC), I(batchCount),
                I(computeType), I(algo));
    return GEMM_STATUS;
}

cublasStatus_t cublasGemmBatchedEx(cublasHandle_t handle, int transa, int transb, int m, int n,
                                   int k, const void *alpha, const void *const Aarray[],
                                   int Atype, int lda, const void *const Barray[], int Btype,
                                   int ldb, const void *beta, void *const Carray[], int Ctype,
                                   int ldc, int batchCount, int computeType, int algo) {
    fake_record(&LOG, "cublasGemmBatchedEx", 20, P(handle), I(transa), I(transb), I(m), I(n),
                I(k), P(alpha), P(Aarray), I(Atype), I(lda), P(Barray), I(Btype), I(ldb),
                P(beta), P(Carray), I(Ctype), I(ldc), I(batchCount), I(computeType), I(algo));
    return GEMM_STATUS;
}

cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, int transa, int transb, int m, int n, int k,
                              const float *alpha, const float *A, int lda, const float *B,
                              int ldb, const float *beta, float *C, int ldc) {
    fake_record(&LOG, "cublasSgemm_v2", 14, P(handle), I(transa), I(transb), I(m), I(n), I(k),
                P(alpha), P(A), I(lda), P(B), I(ldb), P(beta), P(C), I(ldc));
    return GEMM_STATUS;
}

cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, int transa, int transb, int m,
                                         int n, int k, const float *alpha, const float *A,
                                         int lda, long long strideA, const float *B, int ldb,
                                         long long strideB, const float *beta, float *C, int ldc,
                                         long long strideC, int batchCount) {
    fake_record(&LOG, "cublasSgemmStridedBatched", 18, P(handle), I(transa), I(transb), I(m),
                I(n), I(k), P(alpha), P(A), I(lda), I(strideA), P(B), I(ldb), I(strideB),
                P(beta), P(C), I(ldc), I(strideC), I(batchCount));
    return GEMM_STATUS;
}

cublasStatus_t cublasHgemm(cublasHandle_t handle, int transa, int transb, int m, int n, int k,
                           const uint16_t *alpha, const uint16_t *A, int lda, const uint16_t *B,
                           int ldb, const uint16_t *beta, uint16_t *C, int ldc) {
    fake_record(&LOG, "cublasHgemm", 14, P(handle), I(transa), I(transb), I(m), I(n), I(k),
                P(alpha), P(A), I(lda), P(B), I(ldb), P(beta), P(C), I(ldc));
    return GEMM_STATUS;
}

const struct fake_call *fake_blas_calls(int *count) {
    *count = LOG.count;
    return LOG.calls;
}

long fake_blas_getter_calls(void) { return GETTERS; }

void fake_blas_call_lt_inside(int on) { CALL_LT_INSIDE = on; }

void fake_blas_reset(cublasStatus_t gemm_status) {
    LOG.count = 0;
    GETTERS = 0;
    GEMM_STATUS = gemm_status;
}
