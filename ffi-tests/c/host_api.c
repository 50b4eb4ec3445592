/*
 * Host-side behaviour of libdeepgemm from C: descriptors, attribute round-trips, error
 * statuses, versions and status strings, and handle creation without a GPU. Allocates no
 * device memory. Built and run by tests/ffi_programs.rs with
 * gcc -std=c11 -Wall -Wextra -Wpedantic -Werror. Exit status 0 = every check passed.
 *
 * DEEPGEMM_EXPECT_NO_GPU=1 (set by the driver when libcuda cannot be loaded) makes
 * NOT_INITIALIZED from the Create functions mandatory.
 */

/* What CUDA's driver_types.h declares: a deepgemmStream_t must accept it without a cast. */
typedef struct CUstream_st *cudaStream_t;

#include "deepgemm.h"
#include "deepgemm.h" /* the include guard makes a second inclusion harmless */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(deepgemmLtMatmulAlgo_t) == 64, "cublasLtMatmulAlgo_t is 64 bytes");
_Static_assert(sizeof(deepgemmLtMatmulHeuristicResult_t) == 96,
               "cublasLtMatmulHeuristicResult_t is 96 bytes");
_Static_assert(DEEPGEMM_VERSION == DEEPGEMM_VERSION_MAJOR * 10000 + DEEPGEMM_VERSION_MINOR * 100 +
                                       DEEPGEMM_VERSION_PATCH,
               "version encoding");

static int failures = 0;

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                                \
        }                                                                              \
    } while (0)

#define CHECK_STATUS(call, expect)                                                            \
    do {                                                                                      \
        deepgemmStatus_t st_ = (call);                                                        \
        if (st_ != (expect)) {                                                                \
            fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, #call, \
                    deepgemmGetStatusName((int)st_), deepgemmGetStatusName((int)(expect)));   \
            failures++;                                                                       \
        }                                                                                     \
    } while (0)

static void versions_and_strings(void) {
    int v = -1;
    CHECK(deepgemmLtGetVersion() == DEEPGEMM_VERSION);
    CHECK_STATUS(deepgemmGetVersion(NULL, &v), DEEPGEMM_STATUS_SUCCESS);
    CHECK(v == DEEPGEMM_VERSION);
    CHECK_STATUS(deepgemmGetVersion(NULL, NULL), DEEPGEMM_STATUS_INVALID_VALUE);

    CHECK(strcmp(deepgemmGetStatusName(DEEPGEMM_STATUS_SUCCESS), "DEEPGEMM_STATUS_SUCCESS") == 0);
    CHECK(strcmp(deepgemmGetStatusName(DEEPGEMM_STATUS_NOT_SUPPORTED),
                 "DEEPGEMM_STATUS_NOT_SUPPORTED") == 0);
    CHECK(strcmp(deepgemmLtGetStatusName(7), "DEEPGEMM_STATUS_INVALID_VALUE") == 0);
    CHECK(strcmp(deepgemmGetStatusName(12345), "DEEPGEMM_STATUS_UNKNOWN") == 0);
    CHECK(strcmp(deepgemmGetStatusString(-3), "unknown status") == 0);
    CHECK(strlen(deepgemmGetStatusString(DEEPGEMM_STATUS_INVALID_VALUE)) > 0);
    CHECK(strcmp(deepgemmLtGetStatusString(1), deepgemmGetStatusString(1)) == 0);
}

static void properties(void) {
    int major = -1, minor = -1, patch = -1;
    CHECK_STATUS(deepgemmLtGetProperty(DEEPGEMM_MAJOR_VERSION, &major), DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtGetProperty(DEEPGEMM_MINOR_VERSION, &minor), DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmGetProperty(DEEPGEMM_PATCH_LEVEL, &patch), DEEPGEMM_STATUS_SUCCESS);
    CHECK(major == DEEPGEMM_VERSION_MAJOR && minor == DEEPGEMM_VERSION_MINOR &&
          patch == DEEPGEMM_VERSION_PATCH);
    CHECK_STATUS(deepgemmGetProperty(3, &major), DEEPGEMM_STATUS_INVALID_VALUE);
    CHECK_STATUS(deepgemmLtGetProperty(DEEPGEMM_MAJOR_VERSION, NULL),
                 DEEPGEMM_STATUS_INVALID_VALUE);

    /* The plan cache's bound round-trips; NULL out-pointer refused. */
    size_t cap = 0, got = 1;
    CHECK_STATUS(deepgemmLtHeuristicsCacheGetCapacity(&cap), DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtHeuristicsCacheSetCapacity(0), DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtHeuristicsCacheGetCapacity(&got), DEEPGEMM_STATUS_SUCCESS);
    CHECK(got == 0);
    CHECK_STATUS(deepgemmLtHeuristicsCacheSetCapacity(cap), DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtHeuristicsCacheGetCapacity(NULL), DEEPGEMM_STATUS_INVALID_VALUE);

    /* The Sgemm pair on a NULL handle: NOT_INITIALIZED, as cuBLAS. */
    const float one = 1.0f;
    CHECK_STATUS(deepgemmSgemm(NULL, DEEPGEMM_OP_N, DEEPGEMM_OP_N, 1, 1, 1, &one, NULL, 1, NULL, 1,
                               &one, NULL, 1),
                 DEEPGEMM_STATUS_NOT_INITIALIZED);
    CHECK_STATUS(deepgemmSgemmStridedBatched(NULL, DEEPGEMM_OP_N, DEEPGEMM_OP_N, 1, 1, 1, &one,
                                             NULL, 1, 1, NULL, 1, 1, &one, NULL, 1, 1, 1),
                 DEEPGEMM_STATUS_NOT_INITIALIZED);
}

/* The logger callback from C: what it received. */
static int logged_level = 0;
static char logged_function[128];

static void on_log(int32_t level, const char *function, const char *message) {
    (void)message;
    logged_level = level;
    snprintf(logged_function, sizeof logged_function, "%s", function);
}

static void logger(void) {
    deepgemmLtLoggerCallback_t cb = on_log;
    CHECK_STATUS(deepgemmLtLoggerSetCallback(cb), DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtLoggerSetMask(1), DEEPGEMM_STATUS_SUCCESS); /* errors only */
    CHECK_STATUS(deepgemmLtMatmulDescCreate(NULL, DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F),
                 DEEPGEMM_STATUS_INVALID_VALUE);
    CHECK(logged_level == 1 && strcmp(logged_function, "deepgemmLtMatmulDescCreate") == 0);
    CHECK_STATUS(deepgemmLtLoggerSetMask(32), DEEPGEMM_STATUS_INVALID_VALUE);
    CHECK_STATUS(deepgemmLtLoggerSetCallback(NULL), DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtLoggerSetMask(0), DEEPGEMM_STATUS_SUCCESS);
    /* A C stream of the caller's (nothing is written at mask 0), then stderr again. */
    CHECK_STATUS(deepgemmLtLoggerSetFile(stdout), DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtLoggerSetFile(NULL), DEEPGEMM_STATUS_SUCCESS);
}

static void matmul_desc(void) {
    deepgemmLtMatmulDesc_t desc = NULL;
    CHECK_STATUS(deepgemmLtMatmulDescCreate(&desc, DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(desc != NULL);

    /* cuBLASLt's usual calls, with the C types of each attribute. */
    deepgemmOperation_t opT = DEEPGEMM_OP_T, op = -1;
    CHECK_STATUS(deepgemmLtMatmulDescSetAttribute(desc, DEEPGEMMLT_MATMUL_DESC_TRANSA, &opT,
                                                  sizeof(opT)),
                 DEEPGEMM_STATUS_SUCCESS);
    size_t written = 0;
    CHECK_STATUS(deepgemmLtMatmulDescGetAttribute(desc, DEEPGEMMLT_MATMUL_DESC_TRANSA, &op,
                                                  sizeof(op), &written),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(op == DEEPGEMM_OP_T && written == sizeof(op));

    uint32_t epi = DEEPGEMMLT_EPILOGUE_GELU_BIAS, epi_out = 0;
    CHECK_STATUS(deepgemmLtMatmulDescSetAttribute(desc, DEEPGEMMLT_MATMUL_DESC_EPILOGUE, &epi,
                                                  sizeof(epi)),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtMatmulDescGetAttribute(desc, DEEPGEMMLT_MATMUL_DESC_EPILOGUE, &epi_out,
                                                  sizeof(epi_out), NULL),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(epi_out == 36);

    const void *bias = (const void *)(uintptr_t)0x7f0000001000u, *bias_out = NULL;
    CHECK_STATUS(deepgemmLtMatmulDescSetAttribute(desc, DEEPGEMMLT_MATMUL_DESC_BIAS_POINTER, &bias,
                                                  sizeof(bias)),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtMatmulDescGetAttribute(desc, DEEPGEMMLT_MATMUL_DESC_BIAS_POINTER,
                                                  &bias_out, sizeof(bias_out), &written),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(bias_out == bias && written == sizeof(void *));

    int8_t fast = 1, fast_out = 0;
    CHECK_STATUS(deepgemmLtMatmulDescSetAttribute(desc, DEEPGEMMLT_MATMUL_DESC_FAST_ACCUM, &fast,
                                                  sizeof(fast)),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtMatmulDescGetAttribute(desc, DEEPGEMMLT_MATMUL_DESC_FAST_ACCUM,
                                                  &fast_out, sizeof(fast_out), &written),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(fast_out == 1 && written == 1);

    int64_t stride = 1LL << 40, stride_out = 0;
    CHECK_STATUS(deepgemmLtMatmulDescSetAttribute(desc, DEEPGEMMLT_MATMUL_DESC_BIAS_BATCH_STRIDE,
                                                  &stride, sizeof(stride)),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtMatmulDescGetAttribute(desc, DEEPGEMMLT_MATMUL_DESC_BIAS_BATCH_STRIDE,
                                                  &stride_out, sizeof(stride_out), &written),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(stride_out == stride);

    /* Size query: buf NULL, size 0. */
    written = 0;
    CHECK_STATUS(deepgemmLtMatmulDescGetAttribute(desc, DEEPGEMMLT_MATMUL_DESC_AMAX_D_POINTER,
                                                  NULL, 0, &written),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(written == sizeof(void *));
    CHECK_STATUS(deepgemmLtMatmulDescGetAttribute(desc, DEEPGEMMLT_MATMUL_DESC_EPILOGUE, NULL, 0,
                                                  NULL),
                 DEEPGEMM_STATUS_INVALID_VALUE);

    /* Errors: wrong size, NULL buffer, unknown attribute, invalid value; nothing changes. */
    int64_t wide = 1;
    CHECK_STATUS(deepgemmLtMatmulDescSetAttribute(desc, DEEPGEMMLT_MATMUL_DESC_TRANSA, &wide,
                                                  sizeof(wide)),
                 DEEPGEMM_STATUS_INVALID_VALUE);
    CHECK_STATUS(deepgemmLtMatmulDescSetAttribute(desc, DEEPGEMMLT_MATMUL_DESC_TRANSA, NULL, 4),
                 DEEPGEMM_STATUS_INVALID_VALUE);
    CHECK_STATUS(deepgemmLtMatmulDescSetAttribute(desc, 9, &opT, sizeof(opT)),
                 DEEPGEMM_STATUS_INVALID_VALUE);
    int32_t conj = DEEPGEMM_OP_CONJG;
    CHECK_STATUS(deepgemmLtMatmulDescSetAttribute(desc, DEEPGEMMLT_MATMUL_DESC_TRANSA, &conj,
                                                  sizeof(conj)),
                 DEEPGEMM_STATUS_INVALID_VALUE);
    uint32_t bad_epi = 3;
    CHECK_STATUS(deepgemmLtMatmulDescSetAttribute(desc, DEEPGEMMLT_MATMUL_DESC_EPILOGUE, &bad_epi,
                                                  sizeof(bad_epi)),
                 DEEPGEMM_STATUS_INVALID_VALUE);
    int16_t small = 0;
    written = 99;
    CHECK_STATUS(deepgemmLtMatmulDescGetAttribute(desc, DEEPGEMMLT_MATMUL_DESC_TRANSA, &small,
                                                  sizeof(small), &written),
                 DEEPGEMM_STATUS_INVALID_VALUE);
    CHECK(small == 0 && written == 99);
    CHECK_STATUS(deepgemmLtMatmulDescGetAttribute(desc, DEEPGEMMLT_MATMUL_DESC_TRANSA, &op,
                                                  sizeof(op), NULL),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(op == DEEPGEMM_OP_T);

    /* Bad Create arguments write nothing. */
    deepgemmLtMatmulDesc_t keep = desc;
    CHECK_STATUS(deepgemmLtMatmulDescCreate(&keep, 0, DEEPGEMM_R_32F),
                 DEEPGEMM_STATUS_INVALID_VALUE);
    CHECK(keep == desc);
    CHECK_STATUS(deepgemmLtMatmulDescCreate(NULL, DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F),
                 DEEPGEMM_STATUS_INVALID_VALUE);

    CHECK_STATUS(deepgemmLtMatmulDescDestroy(desc), DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtMatmulDescDestroy(NULL), DEEPGEMM_STATUS_SUCCESS);
}

static void layout_and_preference(void) {
    deepgemmLtMatrixLayout_t l = NULL;
    CHECK_STATUS(deepgemmLtMatrixLayoutCreate(&l, DEEPGEMM_R_16BF, 4096, 1024, 4096),
                 DEEPGEMM_STATUS_SUCCESS);
    uint64_t rows = 0;
    int64_t ld = 0;
    uint32_t type = 99;
    size_t written = 0;
    CHECK_STATUS(deepgemmLtMatrixLayoutGetAttribute(l, DEEPGEMMLT_MATRIX_LAYOUT_ROWS, &rows,
                                                    sizeof(rows), &written),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(rows == 4096 && written == 8);
    CHECK_STATUS(deepgemmLtMatrixLayoutGetAttribute(l, DEEPGEMMLT_MATRIX_LAYOUT_LD, &ld,
                                                    sizeof(ld), &written),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(ld == 4096);
    CHECK_STATUS(deepgemmLtMatrixLayoutGetAttribute(l, DEEPGEMMLT_MATRIX_LAYOUT_TYPE, &type,
                                                    sizeof(type), &written),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(type == DEEPGEMM_R_16BF && written == 4);
    deepgemmLtOrder_t order = DEEPGEMMLT_ORDER_ROW, order_out = -1;
    CHECK_STATUS(deepgemmLtMatrixLayoutSetAttribute(l, DEEPGEMMLT_MATRIX_LAYOUT_ORDER, &order,
                                                    sizeof(order)),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtMatrixLayoutGetAttribute(l, DEEPGEMMLT_MATRIX_LAYOUT_ORDER, &order_out,
                                                    sizeof(order_out), NULL),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(order_out == DEEPGEMMLT_ORDER_ROW);
    int32_t batch = 0;
    CHECK_STATUS(deepgemmLtMatrixLayoutSetAttribute(l, DEEPGEMMLT_MATRIX_LAYOUT_BATCH_COUNT,
                                                    &batch, sizeof(batch)),
                 DEEPGEMM_STATUS_INVALID_VALUE);
    CHECK_STATUS(deepgemmLtMatrixLayoutDestroy(l), DEEPGEMM_STATUS_SUCCESS);

    /* Invalid layouts: unknown type, rows over INT64_MAX, negative ld. */
    deepgemmLtMatrixLayout_t keep = NULL;
    CHECK_STATUS(deepgemmLtMatrixLayoutCreate(&keep, 99, 2, 2, 2), DEEPGEMM_STATUS_INVALID_VALUE);
    CHECK_STATUS(deepgemmLtMatrixLayoutCreate(&keep, DEEPGEMM_R_32F, UINT64_MAX, 2, 2),
                 DEEPGEMM_STATUS_INVALID_VALUE);
    CHECK_STATUS(deepgemmLtMatrixLayoutCreate(&keep, DEEPGEMM_R_32F, 2, 2, -1),
                 DEEPGEMM_STATUS_INVALID_VALUE);
    CHECK(keep == NULL);

    deepgemmLtMatmulPreference_t pref = NULL;
    CHECK_STATUS(deepgemmLtMatmulPreferenceCreate(&pref), DEEPGEMM_STATUS_SUCCESS);
    uint64_t ws = 32u << 20, ws_out = 0;
    CHECK_STATUS(deepgemmLtMatmulPreferenceGetAttribute(
                     pref, DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_out, sizeof(ws_out),
                     NULL),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(ws_out == 0);
    CHECK_STATUS(deepgemmLtMatmulPreferenceSetAttribute(
                     pref, DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws)),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtMatmulPreferenceGetAttribute(
                     pref, DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_out, sizeof(ws_out),
                     NULL),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(ws_out == ws);
    float waves = 2.5f, waves_out = 0.0f;
    CHECK_STATUS(deepgemmLtMatmulPreferenceSetAttribute(pref, DEEPGEMMLT_MATMUL_PREF_MAX_WAVES_COUNT,
                                                        &waves, sizeof(waves)),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtMatmulPreferenceGetAttribute(pref, DEEPGEMMLT_MATMUL_PREF_MAX_WAVES_COUNT,
                                                        &waves_out, sizeof(waves_out), NULL),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(waves_out == 2.5f);
    uint32_t align = 0;
    CHECK_STATUS(deepgemmLtMatmulPreferenceGetAttribute(
                     pref, DEEPGEMMLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &align, sizeof(align),
                     NULL),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(align == 256);
    CHECK_STATUS(deepgemmLtMatmulPreferenceDestroy(pref), DEEPGEMM_STATUS_SUCCESS);
}

/* cuBLASLt's Init functions: objects in the caller's storage (here the stack), as apex's
 * fused dense layers and cuBLASLt's samples build them; nothing to destroy, and a struct copy
 * is an independent object. */
static void init_in_callers_storage(void) {
    deepgemmLtMatmulDescOpaque_t desc;
    deepgemmLtMatrixLayoutOpaque_t a, b;
    deepgemmLtMatmulPreferenceOpaque_t pref;
    CHECK(sizeof(desc) == 256 && sizeof(a) == 64 && sizeof(pref) == 64);
    CHECK_STATUS(deepgemmLtMatmulDescInit(&desc, DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F),
                 DEEPGEMM_STATUS_SUCCESS);
    int32_t t = DEEPGEMM_OP_T, out = -1;
    CHECK_STATUS(deepgemmLtMatmulDescSetAttribute(&desc, DEEPGEMMLT_MATMUL_DESC_TRANSA, &t,
                                                  sizeof(t)),
                 DEEPGEMM_STATUS_SUCCESS);
    deepgemmLtMatmulDescOpaque_t copy = desc;
    int32_t n = DEEPGEMM_OP_N;
    CHECK_STATUS(deepgemmLtMatmulDescSetAttribute(&copy, DEEPGEMMLT_MATMUL_DESC_TRANSA, &n,
                                                  sizeof(n)),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtMatmulDescGetAttribute(&desc, DEEPGEMMLT_MATMUL_DESC_TRANSA, &out,
                                                  sizeof(out), NULL),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(out == DEEPGEMM_OP_T);
    CHECK_STATUS(deepgemmLtMatmulDescGetAttribute(&copy, DEEPGEMMLT_MATMUL_DESC_TRANSA, &out,
                                                  sizeof(out), NULL),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(out == DEEPGEMM_OP_N);
    CHECK_STATUS(deepgemmLtMatrixLayoutInit(&a, DEEPGEMM_R_16BF, 4097, 33, 4104),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtMatrixLayoutInit(&b, DEEPGEMM_R_16BF, 2, 2, -1),
                 DEEPGEMM_STATUS_INVALID_VALUE);
    uint64_t rows = 0;
    CHECK_STATUS(deepgemmLtMatrixLayoutGetAttribute(&a, DEEPGEMMLT_MATRIX_LAYOUT_ROWS, &rows,
                                                    sizeof(rows), NULL),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(rows == 4097);
    CHECK_STATUS(deepgemmLtMatmulPreferenceInit(&pref), DEEPGEMM_STATUS_SUCCESS);
    uint32_t align = 0;
    CHECK_STATUS(deepgemmLtMatmulPreferenceGetAttribute(
                     &pref, DEEPGEMMLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &align, sizeof(align),
                     NULL),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(align == 256);
    /* Too little storage (an older header's struct): ALLOC_FAILED, as cublasLt.h says. */
    CHECK_STATUS(deepgemmLtMatmulDescInit_internal(&desc, 96, DEEPGEMM_COMPUTE_32F,
                                                   DEEPGEMM_R_32F),
                 DEEPGEMM_STATUS_ALLOC_FAILED);
    /* Destroy has nothing to free here: refused, and the object stays usable. */
    CHECK_STATUS(deepgemmLtMatmulDescDestroy(&desc), DEEPGEMM_STATUS_INVALID_VALUE);
    CHECK_STATUS(deepgemmLtMatmulDescGetAttribute(&desc, DEEPGEMMLT_MATMUL_DESC_TRANSA, &out,
                                                  sizeof(out), NULL),
                 DEEPGEMM_STATUS_SUCCESS);
}

/* With a device: a profiler's first steps (ids, an algo, its tiles, one configured). */
static void algo_enumeration(deepgemmLtHandle_t lt) {
    int ids[8];
    int n = -1;
    CHECK_STATUS(deepgemmLtMatmulAlgoGetIds(lt, DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F,
                                            DEEPGEMM_R_16BF, DEEPGEMM_R_16BF, DEEPGEMM_R_16BF,
                                            DEEPGEMM_R_16BF, 8, ids, &n),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(n >= 1 && ids[n - 1] == 0); /* the portable family comes last, on every device */
    deepgemmLtMatmulAlgo_t algo;
    CHECK_STATUS(deepgemmLtMatmulAlgoInit(lt, DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F,
                                          DEEPGEMM_R_16BF, DEEPGEMM_R_16BF, DEEPGEMM_R_16BF,
                                          DEEPGEMM_R_16BF, ids[0], &algo),
                 DEEPGEMM_STATUS_SUCCESS);
    size_t need = 0;
    CHECK_STATUS(deepgemmLtMatmulAlgoCapGetAttribute(&algo, DEEPGEMMLT_ALGO_CAP_TILE_IDS, NULL, 0,
                                                     &need),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(need >= sizeof(uint32_t) && need % sizeof(uint32_t) == 0);
    uint32_t *tiles = (uint32_t *)malloc(need);
    size_t written = 0;
    CHECK_STATUS(deepgemmLtMatmulAlgoCapGetAttribute(&algo, DEEPGEMMLT_ALGO_CAP_TILE_IDS, tiles,
                                                     need, &written),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(written == need);
    CHECK_STATUS(deepgemmLtMatmulAlgoConfigSetAttribute(&algo, DEEPGEMMLT_ALGO_CONFIG_TILE_ID,
                                                        &tiles[0], sizeof tiles[0]),
                 DEEPGEMM_STATUS_SUCCESS);
    uint32_t tile = 0;
    CHECK_STATUS(deepgemmLtMatmulAlgoConfigGetAttribute(&algo, DEEPGEMMLT_ALGO_CONFIG_TILE_ID,
                                                        &tile, sizeof tile, &written),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(tile == tiles[0] && written == sizeof tile);
    free(tiles);
}

static void handles(void) {
    int expect_no_gpu = getenv("DEEPGEMM_EXPECT_NO_GPU") != NULL;
    cudaStream_t stream = NULL; /* passed below without a cast */

    deepgemmLtHandle_t lt = (deepgemmLtHandle_t)(uintptr_t)0x5a50;
    deepgemmStatus_t st = deepgemmLtCreate(&lt);
    if (st == DEEPGEMM_STATUS_SUCCESS) {
        CHECK(!expect_no_gpu);
        CHECK(lt != (deepgemmLtHandle_t)(uintptr_t)0x5a50);
        algo_enumeration(lt);
        CHECK_STATUS(deepgemmLtDestroy(lt), DEEPGEMM_STATUS_SUCCESS);
    } else {
        CHECK(st == DEEPGEMM_STATUS_NOT_INITIALIZED);
        CHECK(lt == (deepgemmLtHandle_t)(uintptr_t)0x5a50);
    }
    deepgemmHandle_t h = NULL;
    st = deepgemmCreate(&h);
    if (st == DEEPGEMM_STATUS_SUCCESS) {
        CHECK(!expect_no_gpu);
        cudaStream_t got = (cudaStream_t)(uintptr_t)0x10;
        CHECK_STATUS(deepgemmSetStream(h, stream), DEEPGEMM_STATUS_SUCCESS);
        CHECK_STATUS(deepgemmGetStream(h, &got), DEEPGEMM_STATUS_SUCCESS);
        CHECK(got == stream);
        CHECK_STATUS(deepgemmSetPointerMode(h, DEEPGEMM_POINTER_MODE_DEVICE),
                     DEEPGEMM_STATUS_SUCCESS);
        deepgemmPointerMode_t mode = -1;
        CHECK_STATUS(deepgemmGetPointerMode(h, &mode), DEEPGEMM_STATUS_SUCCESS);
        CHECK(mode == DEEPGEMM_POINTER_MODE_DEVICE);
        /* cublasSetWorkspace's rules: 256-byte aligned, NULL only with 0 bytes. */
        CHECK_STATUS(deepgemmSetWorkspace(h, NULL, 0), DEEPGEMM_STATUS_SUCCESS);
        CHECK_STATUS(deepgemmSetWorkspace(h, NULL, 1024), DEEPGEMM_STATUS_INVALID_VALUE);
        CHECK_STATUS(deepgemmSetWorkspace(h, (void *)(uintptr_t)0x10010, 1024),
                     DEEPGEMM_STATUS_INVALID_VALUE);
        /* cublasSetMathMode's values; an undefined one changes nothing. */
        deepgemmMath_t math = -1;
        CHECK_STATUS(deepgemmGetMathMode(h, &math), DEEPGEMM_STATUS_SUCCESS);
        CHECK(math == DEEPGEMM_DEFAULT_MATH);
        CHECK_STATUS(deepgemmSetMathMode(h, DEEPGEMM_TF32_TENSOR_OP_MATH |
                                                DEEPGEMM_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION),
                     DEEPGEMM_STATUS_SUCCESS);
        CHECK_STATUS(deepgemmSetMathMode(h, 4), DEEPGEMM_STATUS_INVALID_VALUE);
        CHECK_STATUS(deepgemmGetMathMode(h, &math), DEEPGEMM_STATUS_SUCCESS);
        CHECK(math == (DEEPGEMM_TF32_TENSOR_OP_MATH | 16));
        CHECK_STATUS(deepgemmDestroy(h), DEEPGEMM_STATUS_SUCCESS);
    } else {
        CHECK(st == DEEPGEMM_STATUS_NOT_INITIALIZED);
        CHECK(h == NULL);
    }
    CHECK_STATUS(deepgemmLtCreate(NULL), DEEPGEMM_STATUS_INVALID_VALUE);
    CHECK_STATUS(deepgemmLtDestroy(NULL), DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmDestroy(NULL), DEEPGEMM_STATUS_SUCCESS);

    /* NULL handles are NOT_INITIALIZED, as in cuBLAS/cuBLASLt. */
    float alpha = 1.0f, beta = 0.0f;
    CHECK_STATUS(deepgemmLtMatmul(NULL, NULL, &alpha, NULL, NULL, NULL, NULL, &beta, NULL, NULL,
                                  NULL, NULL, NULL, NULL, 0, stream),
                 DEEPGEMM_STATUS_NOT_INITIALIZED);
    deepgemmLtMatmulHeuristicResult_t results[2];
    int count = -1;
    CHECK_STATUS(deepgemmLtMatmulAlgoGetHeuristic(NULL, NULL, NULL, NULL, NULL, NULL, NULL, 2,
                                                  results, &count),
                 DEEPGEMM_STATUS_NOT_INITIALIZED);
    CHECK(count == -1);
    deepgemmLtMatmulAlgo_t algo = {{0}};
    CHECK_STATUS(deepgemmLtMatmulAlgoCheck(NULL, NULL, NULL, NULL, NULL, NULL, &algo, results),
                 DEEPGEMM_STATUS_NOT_INITIALIZED);
    /* Algo enumeration: NULL handles, NULL or foreign algos. */
    int ids[4];
    int nids = -1;
    CHECK_STATUS(deepgemmLtMatmulAlgoGetIds(NULL, DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F,
                                            DEEPGEMM_R_16BF, DEEPGEMM_R_16BF, DEEPGEMM_R_16BF,
                                            DEEPGEMM_R_16BF, 4, ids, &nids),
                 DEEPGEMM_STATUS_NOT_INITIALIZED);
    CHECK(nids == -1);
    CHECK_STATUS(deepgemmLtMatmulAlgoInit(NULL, DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F,
                                          DEEPGEMM_R_16BF, DEEPGEMM_R_16BF, DEEPGEMM_R_16BF,
                                          DEEPGEMM_R_16BF, 0, &algo),
                 DEEPGEMM_STATUS_NOT_INITIALIZED);
    size_t need = 0;
    CHECK_STATUS(deepgemmLtMatmulAlgoCapGetAttribute(NULL, DEEPGEMMLT_ALGO_CAP_TILE_IDS, NULL, 0,
                                                     &need),
                 DEEPGEMM_STATUS_INVALID_VALUE);
    CHECK_STATUS(deepgemmLtMatmulAlgoCapGetAttribute(&algo, DEEPGEMMLT_ALGO_CAP_TILE_IDS, NULL, 0,
                                                     &need),
                 DEEPGEMM_STATUS_INVALID_VALUE); /* zeroed words are no deepgemm algo */
    uint32_t tile = DEEPGEMMLT_MATMUL_TILE_128x256;
    CHECK_STATUS(deepgemmLtMatmulAlgoConfigSetAttribute(&algo, DEEPGEMMLT_ALGO_CONFIG_TILE_ID, &tile,
                                                        sizeof tile),
                 DEEPGEMM_STATUS_INVALID_VALUE);
    CHECK(algo.data[0] == 0);
    CHECK_STATUS(deepgemmSetStream(NULL, stream), DEEPGEMM_STATUS_NOT_INITIALIZED);
    CHECK_STATUS(deepgemmSetMathMode(NULL, DEEPGEMM_DEFAULT_MATH), DEEPGEMM_STATUS_NOT_INITIALIZED);
    CHECK_STATUS(deepgemmSetWorkspace(NULL, NULL, 0), DEEPGEMM_STATUS_NOT_INITIALIZED);
    CHECK_STATUS(deepgemmGemmEx(NULL, DEEPGEMM_OP_N, DEEPGEMM_OP_N, 4, 4, 4, &alpha, NULL,
                                DEEPGEMM_R_16BF, 4, NULL, DEEPGEMM_R_16BF, 4, &beta, NULL,
                                DEEPGEMM_R_16BF, 4, DEEPGEMM_COMPUTE_32F, DEEPGEMM_GEMM_DEFAULT),
                 DEEPGEMM_STATUS_NOT_INITIALIZED);
    CHECK_STATUS(deepgemmGemmStridedBatchedEx(
                     NULL, DEEPGEMM_OP_T, DEEPGEMM_OP_N, 4, 4, 4, &alpha, NULL, DEEPGEMM_R_16F, 4,
                     16, NULL, DEEPGEMM_R_16F, 4, 16, &beta, NULL, DEEPGEMM_R_16F, 4, 16, 2,
                     DEEPGEMM_COMPUTE_32F, DEEPGEMM_GEMM_DEFAULT_TENSOR_OP),
                 DEEPGEMM_STATUS_NOT_INITIALIZED);
    /* cublasGemmBatchedEx's array types: const void *const A[], void *const C[]. */
    const void *const a_array[2] = {NULL, NULL};
    void *const c_array[2] = {NULL, NULL};
    CHECK_STATUS(deepgemmGemmBatchedEx(NULL, DEEPGEMM_OP_T, DEEPGEMM_OP_N, 4, 4, 4, &alpha,
                                       a_array, DEEPGEMM_R_16BF, 4, a_array, DEEPGEMM_R_16BF, 4,
                                       &beta, c_array, DEEPGEMM_R_16BF, 4, 2, DEEPGEMM_R_32F,
                                       DEEPGEMM_GEMM_DEFAULT),
                 DEEPGEMM_STATUS_NOT_INITIALIZED);
}

int main(void) {
    CHECK_STATUS(deepgemmLtLoggerSetLevel(0), DEEPGEMM_STATUS_SUCCESS);
    versions_and_strings();
    properties();
    logger();
    matmul_desc();
    layout_and_preference();
    init_in_callers_storage();
    handles();
    /* Last: logging is off for good afterwards; setters still validate. */
    CHECK_STATUS(deepgemmLtLoggerForceDisable(), DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtLoggerSetLevel(5), DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtLoggerSetMask(-1), DEEPGEMM_STATUS_INVALID_VALUE);
    if (failures != 0) {
        fprintf(stderr, "host_api.c: %d check(s) failed\n", failures);
        return 1;
    }
    printf("host_api.c: all checks passed\n");
    return 0;
}
