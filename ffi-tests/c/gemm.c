/*
 * GEMMs through the installed library's cuBLASLt-style API, checked against the CPU
 * reference (ffi-tests/common/ref_gemm.h): fp32, bf16 and fp16 inputs, transposes, padded
 * leading dimensions, alpha/beta, a bias epilogue and an algorithm from the heuristic.
 * Device memory comes from the driver API loaded with dlopen (common/cuda_driver.h).
 *
 * Without a GPU it checks that the library says so (NOT_INITIALIZED from both Create
 * functions, consistent with the driver) and runs no GEMM.
 *   DEEPGEMM_EXPECT_GPU=1     no GPU is a failure (the GPU install check sets it)
 *   DEEPGEMM_EXPECT_NO_GPU=1  a GPU is a failure (set by the CPU-only test driver)
 * Exit status 0 = every check passed.
 */
#include <deepgemm.h>

#include "cuda_driver.h"
#include "ref_gemm.h"

#include <stdio.h>
#include <stdlib.h>

static int failures = 0;

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                                \
        }                                                                              \
    } while (0)

/* Evaluates `call`; on a status other than SUCCESS reports it and jumps to `out`. */
#define TRY(call)                                                                       \
    do {                                                                                \
        deepgemmStatus_t st_ = (call);                                                  \
        if (st_ != DEEPGEMM_STATUS_SUCCESS) {                                           \
            fprintf(stderr, "%s:%d: %s returned %s\n", __FILE__, __LINE__, #call,       \
                    deepgemmGetStatusName((int32_t)st_));                               \
            failures++;                                                                 \
            goto out;                                                                   \
        }                                                                               \
    } while (0)

typedef struct gemm_case {
    const char *name;
    int transa, transb;
    int64_t m, n, k;
    ref_dtype ab, cd;
    float alpha, beta;
    int bias;      /* EPILOGUE_BIAS with an fp32 bias (D must then be fp32 here) */
    int heuristic; /* pass the heuristic's first algorithm instead of NULL */
} gemm_case;

static deepgemmDataType_t dg_type(ref_dtype t) {
    return t == REF_F32 ? DEEPGEMM_R_32F : t == REF_F16 ? DEEPGEMM_R_16F : DEEPGEMM_R_16BF;
}

static void run_case(const cuda_driver *cu, deepgemmLtHandle_t h, const gemm_case *c) {
    /* Padded leading dimensions: the kernels must honour ld, not assume packed rows. */
    const int64_t lda = (c->transa ? c->k : c->m) + 3, acols = c->transa ? c->m : c->k;
    const int64_t ldb = (c->transb ? c->n : c->k) + 1, bcols = c->transb ? c->k : c->n;
    const int64_t ldc = c->m + 2;
    const size_t na = (size_t)(lda * acols), nb = (size_t)(ldb * bcols), nc = (size_t)(ldc * c->n);
    const size_t sab = ref_dtype_size(c->ab), scd = ref_dtype_size(c->cd);
    uint64_t seed = 0x5eed0000u + (uint64_t)c->m * 31u + (uint64_t)c->k;

    void *a = malloc(na * sab), *b = malloc(nb * sab), *cm = malloc(nc * scd),
         *d = malloc(nc * scd);
    float *bias = malloc((size_t)c->m * sizeof(float));
    double *ref = malloc((size_t)(c->m * c->n) * sizeof(double));
    double *bias64 = malloc((size_t)c->m * sizeof(double));
    cuda_devptr da = 0, db = 0, dc = 0, dd = 0, dbias = 0;
    deepgemmLtMatmulDesc_t op = NULL;
    deepgemmLtMatrixLayout_t la = NULL, lb = NULL, lc = NULL;
    deepgemmLtMatmulPreference_t pref = NULL;
    if (!a || !b || !cm || !d || !bias || !ref || !bias64) {
        fprintf(stderr, "%s: out of host memory\n", c->name);
        failures++;
        goto out;
    }
    ref_fill(&seed, c->ab, a, na);
    ref_fill(&seed, c->ab, b, nb);
    ref_fill(&seed, c->cd, cm, nc);
    ref_fill(&seed, REF_F32, bias, (size_t)c->m);
    for (int64_t i = 0; i < c->m; i++) bias64[i] = bias[i];

    da = cuda_upload(cu, a, na * sab);
    db = cuda_upload(cu, b, nb * sab);
    dc = cuda_upload(cu, cm, nc * scd);
    dd = cuda_upload(cu, cm, nc * scd); /* D starts as a copy of C: padding must survive */
    dbias = cuda_upload(cu, bias, (size_t)c->m * sizeof(float));
    if (!da || !db || !dc || !dd || !dbias) {
        failures++;
        goto out;
    }

    TRY(deepgemmLtMatmulDescCreate(&op, DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F));
    deepgemmOperation_t ta = c->transa ? DEEPGEMM_OP_T : DEEPGEMM_OP_N;
    deepgemmOperation_t tb = c->transb ? DEEPGEMM_OP_T : DEEPGEMM_OP_N;
    TRY(deepgemmLtMatmulDescSetAttribute(op, DEEPGEMMLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    TRY(deepgemmLtMatmulDescSetAttribute(op, DEEPGEMMLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    if (c->bias) {
        uint32_t epi = DEEPGEMMLT_EPILOGUE_BIAS;
        int32_t bias_type = DEEPGEMM_R_32F;
        void *bias_ptr = (void *)(uintptr_t)dbias;
        TRY(deepgemmLtMatmulDescSetAttribute(op, DEEPGEMMLT_MATMUL_DESC_EPILOGUE, &epi,
                                             sizeof epi));
        TRY(deepgemmLtMatmulDescSetAttribute(op, DEEPGEMMLT_MATMUL_DESC_BIAS_DATA_TYPE,
                                             &bias_type, sizeof bias_type));
        TRY(deepgemmLtMatmulDescSetAttribute(op, DEEPGEMMLT_MATMUL_DESC_BIAS_POINTER, &bias_ptr,
                                             sizeof bias_ptr));
    }
    TRY(deepgemmLtMatrixLayoutCreate(&la, dg_type(c->ab), (uint64_t)(c->transa ? c->k : c->m),
                                     (uint64_t)acols, lda));
    TRY(deepgemmLtMatrixLayoutCreate(&lb, dg_type(c->ab), (uint64_t)(c->transb ? c->n : c->k),
                                     (uint64_t)bcols, ldb));
    TRY(deepgemmLtMatrixLayoutCreate(&lc, dg_type(c->cd), (uint64_t)c->m, (uint64_t)c->n, ldc));

    deepgemmLtMatmulHeuristicResult_t results[4];
    const deepgemmLtMatmulAlgo_t *algo = NULL;
    if (c->heuristic) {
        int32_t count = 0;
        TRY(deepgemmLtMatmulPreferenceCreate(&pref));
        TRY(deepgemmLtMatmulAlgoGetHeuristic(h, op, la, lb, lc, lc, pref, 4, results, &count));
        CHECK(count >= 1);
        if (count < 1) goto out;
        CHECK(results[0].state == DEEPGEMM_STATUS_SUCCESS);
        CHECK(results[0].workspaceSize == 0); /* the preference allows no workspace */
        algo = &results[0].algo;
    }

    TRY(deepgemmLtMatmul(h, op, &c->alpha, (const void *)(uintptr_t)da, la,
                         (const void *)(uintptr_t)db, lb, &c->beta, (const void *)(uintptr_t)dc,
                         lc, (void *)(uintptr_t)dd, lc, algo, NULL, 0, NULL));
    if (cu->CtxSynchronize() != 0 || cu->MemcpyDtoH(d, dd, nc * scd) != 0) {
        fprintf(stderr, "%s: synchronize or copy back failed\n", c->name);
        failures++;
        goto out;
    }

    ref_gemm(c->transa, c->transb, c->m, c->n, c->k, c->alpha, c->ab, a, lda, b, ldb, c->beta,
             c->cd, cm, ldc, c->bias ? bias64 : NULL, ref);
    double err = ref_rel_error(c->cd, d, ldc, ref, c->m, c->n), tol = ref_tolerance(c->ab, c->cd);
    int pad_ok = 1; /* rows m..ldc-1 of D are not part of the result: left as they were */
    for (int64_t j = 0; j < c->n; j++)
        for (int64_t i = c->m; i < ldc; i++)
            pad_ok &= memcmp((char *)d + (size_t)(i + j * ldc) * scd,
                             (char *)cm + (size_t)(i + j * ldc) * scd, scd) == 0;
    printf("%-44s rel err %.3e (tolerance %.0e)%s\n", c->name, err, tol,
           err <= tol && pad_ok ? "" : "  FAILED");
    CHECK(err <= tol);
    CHECK(pad_ok);

out:
    deepgemmLtMatmulPreferenceDestroy(pref);
    deepgemmLtMatrixLayoutDestroy(la);
    deepgemmLtMatrixLayoutDestroy(lb);
    deepgemmLtMatrixLayoutDestroy(lc);
    deepgemmLtMatmulDescDestroy(op);
    if (da) cu->MemFree(da);
    if (db) cu->MemFree(db);
    if (dc) cu->MemFree(dc);
    if (dd) cu->MemFree(dd);
    if (dbias) cu->MemFree(dbias);
    free(a);
    free(b);
    free(cm);
    free(d);
    free(bias);
    free(ref);
    free(bias64);
}

static const gemm_case CASES[] = {
    {"f32 NN 67x45x129 alpha 1.5 beta -0.5", 0, 0, 67, 45, 129, REF_F32, REF_F32, 1.5f, -0.5f, 0,
     0},
    {"bf16 TN 128x96x256 -> bf16, heuristic algo", 1, 0, 128, 96, 256, REF_BF16, REF_BF16, 1.0f,
     0.0f, 0, 1},
    {"f16 NT 200x72x64 -> f32, bias, beta 1", 0, 1, 200, 72, 64, REF_F16, REF_F32, 1.0f, 1.0f, 1,
     0},
    {"bf16 TT 33x257x100 -> f32, heuristic algo", 1, 1, 33, 257, 100, REF_BF16, REF_F32, -1.0f,
     0.25f, 0, 1},
};

int main(void) {
    const int expect_gpu = getenv("DEEPGEMM_EXPECT_GPU") != NULL;
    const int expect_no_gpu = getenv("DEEPGEMM_EXPECT_NO_GPU") != NULL;
    CHECK(deepgemmLtLoggerSetLevel(0) == DEEPGEMM_STATUS_SUCCESS);

    deepgemmLtHandle_t h = NULL;
    deepgemmStatus_t st = deepgemmLtCreate(&h);
    cuda_driver cu;
    int drv = cuda_driver_open(&cu);
    if (st == DEEPGEMM_STATUS_NOT_INITIALIZED) {
        /* No GPU: both APIs agree, the driver agrees, and nothing was written. */
        deepgemmHandle_t bh = NULL;
        CHECK(deepgemmCreate(&bh) == DEEPGEMM_STATUS_NOT_INITIALIZED);
        CHECK(h == NULL && bh == NULL);
        CHECK(drv == 1);
        CHECK(!expect_gpu);
        printf("gemm.c: no GPU (deepgemmLtCreate: %s); GEMMs not run\n",
               deepgemmGetStatusName((int32_t)st));
    } else {
        CHECK(st == DEEPGEMM_STATUS_SUCCESS);
        CHECK(!expect_no_gpu);
        CHECK(drv == 0);
        if (st == DEEPGEMM_STATUS_SUCCESS && drv == 0) {
            for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) run_case(&cu, h, &CASES[i]);
        }
        CHECK(deepgemmLtDestroy(h) == DEEPGEMM_STATUS_SUCCESS);
    }
    if (failures != 0) {
        fprintf(stderr, "gemm.c: %d check(s) failed\n", failures);
        return 1;
    }
    printf("gemm.c: all checks passed\n");
    return 0;
}
