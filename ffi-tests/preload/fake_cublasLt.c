/* A stand-in for libcublasLt.so.13: descriptors that store attributes with cuBLASLt's
 * sizes, defaults and GetAttribute contract (sizeInBytes must match; 0 with sizeWritten
 * asks for the size; unknown ids are INVALID_VALUE), and a cublasLtMatmul that records
 * its arguments and returns the status set by fake_lt_reset. */
#include <stdlib.h>
#include <string.h>

#include "fake_record.h"

/* Byte size of each matmul desc attribute id (0: no such attribute), cublasLt.h 13.0, and
 * id 39 as a newer cuBLASLt might add one (the preload must forward a call that sets it). */
static const size_t DESC_SIZE[40] = {
    4, 4, 4, 4, 4, 4, 4, 4, /* COMPUTE_TYPE .. EPILOGUE */
    8, 0, 8, 8, 8, 8, 8,    /* BIAS_POINTER, (9), BIAS_BATCH_STRIDE, AUX_POINTER, AUX_LD,
                               AUX_BATCH_STRIDE, ALPHA_VECTOR_BATCH_STRIDE */
    4, 0,                   /* SM_COUNT_TARGET, (16) */
    8, 8, 8, 8, 8,          /* A/B/C/D_SCALE_POINTER, AMAX_D_POINTER */
    4, 8, 8, 1, 4,          /* AUX_DATA_TYPE, AUX_SCALE_POINTER, AUX_AMAX_POINTER,
                               FAST_ACCUM, BIAS_DATA_TYPE */
    4, 4, 8, 8,             /* ATOMIC_SYNC_* */
    4, 4, 4, 4, 4,          /* A/B/C/D/AUX _SCALE_MODE */
    8, 4, 8,                /* D_OUT_SCALE_POINTER, D_OUT_SCALE_MODE, EMULATION_DESCRIPTOR */
    4,                      /* (a newer cuBLASLt's attribute) */
};
/* Matrix layout attributes: TYPE, ORDER, ROWS, COLS, LD, BATCH_COUNT, STRIDED_BATCH_OFFSET,
 * PLANE_OFFSET, BATCH_MODE. */
static const size_t LAYOUT_SIZE[9] = {4, 4, 8, 8, 8, 4, 8, 8, 4};

struct attrs {
    unsigned char v[40][8];
};
struct fake_desc {
    struct attrs a;
};
struct fake_layout {
    struct attrs a;
};

static struct fake_log LOG;
static long READS;
static cublasStatus_t GEMM_STATUS;

static void put(struct attrs *a, int id, int64_t v, size_t size) {
    memcpy(a->v[id], &v, size); /* little-endian: the low bytes */
}

static cublasStatus_t set(struct attrs *a, const size_t *sizes, int n, int id, const void *buf,
                          size_t size) {
    if (id < 0 || id >= n || sizes[id] == 0 || buf == NULL || size != sizes[id]) {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    memcpy(a->v[id], buf, size);
    return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t get(const struct attrs *a, const size_t *sizes, int n, int id, void *buf,
                          size_t size, size_t *written) {
    READS++;
    if (id < 0 || id >= n || sizes[id] == 0) {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    if (size == 0 && written != NULL) {
        *written = sizes[id];
        return CUBLAS_STATUS_SUCCESS;
    }
    if (buf == NULL || size != sizes[id]) {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    memcpy(buf, a->v[id], size);
    if (written != NULL) {
        *written = size;
    }
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *desc, int computeType,
                                        int scaleType) {
    struct fake_desc *d = calloc(1, sizeof *d);
    if (d == NULL || desc == NULL) {
        free(d);
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    put(&d->a, 0, computeType, 4);
    put(&d->a, 1, scaleType, 4);
    put(&d->a, 6, 2, 4);  /* FILL_MODE: FULL */
    put(&d->a, 7, 1, 4);  /* EPILOGUE: DEFAULT */
    put(&d->a, 22, -1, 4); /* EPILOGUE_AUX_DATA_TYPE: D's */
    put(&d->a, 26, -1, 4); /* BIAS_DATA_TYPE: D's */
    *desc = d;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc) {
    free(desc);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t desc, int attr,
                                              const void *buf, size_t size) {
    return desc ? set(&desc->a, DESC_SIZE, 40, attr, buf, size) : CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t desc, int attr, void *buf,
                                              size_t size, size_t *sizeWritten) {
    return desc ? get(&desc->a, DESC_SIZE, 40, attr, buf, size, sizeWritten)
                : CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *layout, int type,
                                          uint64_t rows, uint64_t cols, int64_t ld) {
    struct fake_layout *l = calloc(1, sizeof *l);
    if (l == NULL || layout == NULL) {
        free(l);
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    put(&l->a, 0, type, 4);
    put(&l->a, 2, (int64_t)rows, 8);
    put(&l->a, 3, (int64_t)cols, 8);
    put(&l->a, 4, ld, 8);
    put(&l->a, 5, 1, 4); /* BATCH_COUNT */
    *layout = l;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout) {
    free(layout);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t layout, int attr,
                                                const void *buf, size_t size) {
    return layout ? set(&layout->a, LAYOUT_SIZE, 9, attr, buf, size)
                  : CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t layout, int attr,
                                                void *buf, size_t size, size_t *sizeWritten) {
    return layout ? get(&layout->a, LAYOUT_SIZE, 9, attr, buf, size, sizeWritten)
                  : CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t h, cublasLtMatmulDesc_t computeDesc,
                              const void *alpha, const void *A, cublasLtMatrixLayout_t Adesc,
                              const void *B, cublasLtMatrixLayout_t Bdesc, const void *beta,
                              const void *C, cublasLtMatrixLayout_t Cdesc, void *D,
                              cublasLtMatrixLayout_t Ddesc, const cublasLtMatmulAlgo_t *algo,
                              void *workspace, size_t workspaceSizeInBytes,
                              cudaStream_t stream) {
    fake_record(&LOG, "cublasLtMatmul", 16, P(h), P(computeDesc), P(alpha), P(A), P(Adesc),
                P(B), P(Bdesc), P(beta), P(C), P(Cdesc), P(D), P(Ddesc), P(algo), P(workspace),
                (uint64_t)workspaceSizeInBytes, P(stream));
    return GEMM_STATUS;
}

const struct fake_call *fake_lt_calls(int *count) {
    *count = LOG.count;
    return LOG.calls;
}

long fake_lt_attribute_reads(void) { return READS; }

void fake_lt_reset(cublasStatus_t gemm_status) {
    LOG.count = 0;
    READS = 0;
    GEMM_STATUS = gemm_status;
}
