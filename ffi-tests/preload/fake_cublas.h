/* The slice of cuBLAS and cuBLASLt that the preload test uses, with the real libraries'
 * signatures and numeric values, plus the fakes' recording interface.
 *
 * fake_cublasLt.c and fake_cublas.c build libcublasLt.so.13 and libcublas.so.13 stand-ins
 * that record every GEMM call's arguments instead of computing, so the test can check that
 * libdeepgemm_preload.so forwarded a call with its arguments untouched. No CUDA needed. */
#ifndef FAKE_CUBLAS_H
#define FAKE_CUBLAS_H

#include <stddef.h>
#include <stdint.h>

typedef int cublasStatus_t;
typedef void *cudaStream_t;
typedef struct fake_blas_handle *cublasHandle_t;
typedef struct fake_lt_handle *cublasLtHandle_t;
typedef struct fake_desc *cublasLtMatmulDesc_t;
typedef struct fake_layout *cublasLtMatrixLayout_t;
typedef struct {
    uint64_t data[8];
} cublasLtMatmulAlgo_t;

#define CUBLAS_STATUS_SUCCESS 0
#define CUBLAS_STATUS_NOT_INITIALIZED 1
#define CUBLAS_STATUS_INVALID_VALUE 7
#define CUBLAS_STATUS_EXECUTION_FAILED 13
#define CUBLAS_STATUS_INTERNAL_ERROR 14

enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 };
enum {
    CUDA_R_32F = 0,
    CUDA_R_16F = 2,
    CUDA_R_8I = 3,
    CUDA_R_32I = 10,
    CUDA_R_16BF = 14,
    CUDA_R_8F_E4M3 = 28
};
enum {
    CUBLAS_COMPUTE_32F = 68,
    CUBLAS_COMPUTE_32F_FAST_16F = 74,
    CUBLAS_COMPUTE_32F_FAST_16BF = 75,
    CUBLAS_COMPUTE_32I = 72
};
enum {
    CUBLAS_DEFAULT_MATH = 0,
    CUBLAS_TENSOR_OP_MATH = 1,
    CUBLAS_TF32_TENSOR_OP_MATH = 3
};
enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 };
enum { CUBLAS_GEMM_DEFAULT = -1 };

/* cublasLtMatmulDescAttributes_t (the ones used here) */
enum {
    CUBLASLT_MATMUL_DESC_COMPUTE_TYPE = 0,
    CUBLASLT_MATMUL_DESC_SCALE_TYPE = 1,
    CUBLASLT_MATMUL_DESC_POINTER_MODE = 2,
    CUBLASLT_MATMUL_DESC_TRANSA = 3,
    CUBLASLT_MATMUL_DESC_TRANSB = 4,
    CUBLASLT_MATMUL_DESC_EPILOGUE = 7,
    CUBLASLT_MATMUL_DESC_BIAS_POINTER = 8,
    CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET = 15,
    CUBLASLT_MATMUL_DESC_A_SCALE_POINTER = 17,
    CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE = 26
};
enum {
    CUBLASLT_MATRIX_LAYOUT_TYPE = 0,
    CUBLASLT_MATRIX_LAYOUT_ORDER = 1,
    CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5,
    CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6
};
enum { CUBLASLT_ORDER_COL = 0, CUBLASLT_ORDER_COL32 = 2 };
enum {
    CUBLASLT_EPILOGUE_DEFAULT = 1,
    CUBLASLT_EPILOGUE_GELU_BIAS = 36,
    CUBLASLT_EPILOGUE_GELU_AUX = 160
};
enum { CUBLASLT_POINTER_MODE_DEVICE_VECTOR = 2 };

/* cuBLASLt */
cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *desc, int computeType,
                                        int scaleType);
cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc);
cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t desc, int attr,
                                              const void *buf, size_t size);
cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t desc, int attr, void *buf,
                                              size_t size, size_t *sizeWritten);
cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *layout, int type,
                                          uint64_t rows, uint64_t cols, int64_t ld);
cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout);
cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t layout, int attr,
                                                const void *buf, size_t size);
cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t layout, int attr,
                                                void *buf, size_t size, size_t *sizeWritten);
cublasStatus_t cublasLtMatmul(cublasLtHandle_t h, cublasLtMatmulDesc_t computeDesc,
                              const void *alpha, const void *A, cublasLtMatrixLayout_t Adesc,
                              const void *B, cublasLtMatrixLayout_t Bdesc, const void *beta,
                              const void *C, cublasLtMatrixLayout_t Cdesc, void *D,
                              cublasLtMatrixLayout_t Ddesc, const cublasLtMatmulAlgo_t *algo,
                              void *workspace, size_t workspaceSizeInBytes,
                              cudaStream_t stream);

/* cuBLAS */
cublasStatus_t cublasCreate_v2(cublasHandle_t *handle);
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle);
cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void *workspace,
                                     size_t workspaceSizeInBytes);
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream);
cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *stream);
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, int mode);
cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, int *mode);
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, int mode);
cublasStatus_t cublasGetMathMode(cublasHandle_t handle, int *mode);
cublasStatus_t cublasSetSmCountTarget(cublasHandle_t handle, int smCountTarget);
cublasStatus_t cublasGetSmCountTarget(cublasHandle_t handle, int *smCountTarget);
cublasStatus_t cublasGemmEx(cublasHandle_t handle, int transa, int transb, int m, int n, int k,
                            const void *alpha, const void *A, int Atype, int lda, const void *B,
                            int Btype, int ldb, const void *beta, void *C, int Ctype, int ldc,
                            int computeType, int algo);
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, int transa, int transb, int m,
                                          int n, int k, const void *alpha, const void *A,
                                          int Atype, int lda, long long strideA, const void *B,
                                          int Btype, int ldb, long long strideB,
                                          const void *beta, void *C, int Ctype, int ldc,
                                          long long strideC, int batchCount, int computeType,
                                          int algo);
cublasStatus_t cublasGemmBatchedEx(cublasHandle_t handle, int transa, int transb, int m, int n,
                                   int k, const void *alpha, const void *const Aarray[],
                                   int Atype, int lda, const void *const Barray[], int Btype,
                                   int ldb, const void *beta, void *const Carray[], int Ctype,
                                   int ldc, int batchCount, int computeType, int algo);
cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, int transa, int transb, int m, int n, int k,
                              const float *alpha, const float *A, int lda, const float *B,
                              int ldb, const float *beta, float *C, int ldc);
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, int transa, int transb, int m,
                                         int n, int k, const float *alpha, const float *A,
                                         int lda, long long strideA, const float *B, int ldb,
                                         long long strideB, const float *beta, float *C, int ldc,
                                         long long strideC, int batchCount);
cublasStatus_t cublasHgemm(cublasHandle_t handle, int transa, int transb, int m, int n, int k,
                           const uint16_t *alpha, const uint16_t *A, int lda, const uint16_t *B,
                           int ldb, const uint16_t *beta, uint16_t *C, int ldc);

/* Recording: the GEMM calls (and cublasSetWorkspace_v2 / cublasDestroy_v2) each fake received, in order, every argument as 64 bits
 * (pointers as addresses, integers sign-extended). */
#define FAKE_MAX_ARGS 24
struct fake_call {
    const char *name;
    int nargs;
    uint64_t args[FAKE_MAX_ARGS];
};
/* libcublasLt.so.13 */
const struct fake_call *fake_lt_calls(int *count);
long fake_lt_attribute_reads(void); /* Get*Attribute calls since the last reset */
void fake_lt_reset(cublasStatus_t gemm_status);
/* libcublas.so.13 */
const struct fake_call *fake_blas_calls(int *count);
long fake_blas_getter_calls(void); /* cublasGet* calls since the last reset */
void fake_blas_reset(cublasStatus_t gemm_status);
/* When on, cublasGemmEx first calls cublasLtMatmul through its exported symbol, as a cuBLAS
 * built on cuBLASLt may: under LD_PRELOAD that inner call reaches the preload. */
void fake_blas_call_lt_inside(int on);

#endif
