// Host-side behaviour of libdeepgemm from C++17: the header under extern "C", RAII owners
// for the opaque objects, attribute round-trips, error statuses, versions and handle
// creation without a GPU. Allocates no device memory. Built and run by
// tests/ffi_programs.rs with g++ -std=c++17 -Wall -Wextra -Wpedantic -Werror.
// DEEPGEMM_EXPECT_NO_GPU=1 makes NOT_INITIALIZED from the Create functions mandatory.

// What CUDA's driver_types.h declares: a deepgemmStream_t must accept it without a cast.
typedef struct CUstream_st *cudaStream_t;

#include "deepgemm.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

static_assert(sizeof(deepgemmLtMatmulHeuristicResult_t) == 96, "96-byte heuristic result");
static_assert(std::is_same<deepgemmStream_t, cudaStream_t>::value,
              "a cudaStream_t is a deepgemmStream_t");
static_assert(std::is_same<deepgemmDataType_t, std::int32_t>::value, "int32 value typedefs");

namespace {

int failures = 0;

void check(bool ok, const char *what, int line) {
    if (!ok) {
        std::fprintf(stderr, "host_api.cpp:%d: check failed: %s\n", line, what);
        ++failures;
    }
}

void check_status(deepgemmStatus_t got, deepgemmStatus_t want, const char *what, int line) {
    if (got != want) {
        std::fprintf(stderr, "host_api.cpp:%d: %s returned %s, expected %s\n", line, what,
                     deepgemmGetStatusName(got), deepgemmGetStatusName(want));
        ++failures;
    }
}

#define CHECK(c) check((c), #c, __LINE__)
#define CHECK_STATUS(call, want) check_status((call), (want), #call, __LINE__)

// RAII owners: the Destroy functions are the deleters.
struct DescDeleter {
    void operator()(deepgemmLtMatmulDescOpaque *d) const { deepgemmLtMatmulDescDestroy(d); }
};
struct LayoutDeleter {
    void operator()(deepgemmLtMatrixLayoutOpaque *l) const { deepgemmLtMatrixLayoutDestroy(l); }
};
struct PrefDeleter {
    void operator()(deepgemmLtMatmulPreferenceOpaque *p) const {
        deepgemmLtMatmulPreferenceDestroy(p);
    }
};
using Desc = std::unique_ptr<deepgemmLtMatmulDescOpaque, DescDeleter>;
using Layout = std::unique_ptr<deepgemmLtMatrixLayoutOpaque, LayoutDeleter>;
using Pref = std::unique_ptr<deepgemmLtMatmulPreferenceOpaque, PrefDeleter>;

Desc make_desc(deepgemmComputeType_t ct, deepgemmDataType_t st) {
    deepgemmLtMatmulDesc_t d = nullptr;
    CHECK_STATUS(deepgemmLtMatmulDescCreate(&d, ct, st), DEEPGEMM_STATUS_SUCCESS);
    return Desc(d);
}

Layout make_layout(deepgemmDataType_t t, std::uint64_t r, std::uint64_t c, std::int64_t ld) {
    deepgemmLtMatrixLayout_t l = nullptr;
    CHECK_STATUS(deepgemmLtMatrixLayoutCreate(&l, t, r, c, ld), DEEPGEMM_STATUS_SUCCESS);
    return Layout(l);
}

template <typename T>
deepgemmStatus_t set(const Desc &d, deepgemmLtMatmulDescAttributes_t a, T v) {
    return deepgemmLtMatmulDescSetAttribute(d.get(), a, &v, sizeof(v));
}

template <typename T>
T get(const Desc &d, deepgemmLtMatmulDescAttributes_t a) {
    T v{};
    std::size_t written = 0;
    CHECK_STATUS(deepgemmLtMatmulDescGetAttribute(d.get(), a, &v, sizeof(v), &written),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(written == sizeof(T));
    return v;
}

void strings_and_versions() {
    CHECK(std::string(deepgemmGetStatusName(DEEPGEMM_STATUS_INTERNAL_ERROR)) ==
          "DEEPGEMM_STATUS_INTERNAL_ERROR");
    CHECK(std::string(deepgemmGetStatusName(-7)) == "DEEPGEMM_STATUS_UNKNOWN");
    CHECK(std::string(deepgemmGetStatusString(99)) == "unknown status");
    CHECK(deepgemmLtGetVersion() == DEEPGEMM_VERSION);
    int v = 0;
    CHECK_STATUS(deepgemmGetVersion(nullptr, &v), DEEPGEMM_STATUS_SUCCESS);
    CHECK(v == DEEPGEMM_VERSION);
}

void descriptors() {
    Desc d = make_desc(DEEPGEMM_COMPUTE_32F_FAST_TF32, DEEPGEMM_R_32F);
    CHECK(get<std::int32_t>(d, DEEPGEMMLT_MATMUL_DESC_COMPUTE_TYPE) ==
          DEEPGEMM_COMPUTE_32F_FAST_TF32);
    CHECK(get<std::int32_t>(d, DEEPGEMMLT_MATMUL_DESC_SCALE_TYPE) == DEEPGEMM_R_32F);
    // Defaults, as cuBLASLt documents them.
    CHECK(get<std::uint32_t>(d, DEEPGEMMLT_MATMUL_DESC_EPILOGUE) == DEEPGEMMLT_EPILOGUE_DEFAULT);
    CHECK(get<std::int32_t>(d, DEEPGEMMLT_MATMUL_DESC_FILL_MODE) == DEEPGEMM_FILL_MODE_FULL);
    CHECK(get<std::int32_t>(d, DEEPGEMMLT_MATMUL_DESC_BIAS_DATA_TYPE) == -1);
    CHECK(get<void *>(d, DEEPGEMMLT_MATMUL_DESC_BIAS_POINTER) == nullptr);

    CHECK_STATUS(set(d, DEEPGEMMLT_MATMUL_DESC_EPILOGUE,
                     static_cast<std::uint32_t>(DEEPGEMMLT_EPILOGUE_RELU_BIAS)),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(get<std::uint32_t>(d, DEEPGEMMLT_MATMUL_DESC_EPILOGUE) == 6);
    CHECK_STATUS(set(d, DEEPGEMMLT_MATMUL_DESC_POINTER_MODE, DEEPGEMMLT_POINTER_MODE_DEVICE),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(get<std::int32_t>(d, DEEPGEMMLT_MATMUL_DESC_POINTER_MODE) == 1);
    CHECK_STATUS(set(d, DEEPGEMMLT_MATMUL_DESC_SM_COUNT_TARGET, std::int32_t{66}),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(get<std::int32_t>(d, DEEPGEMMLT_MATMUL_DESC_SM_COUNT_TARGET) == 66);

    // Errors.
    CHECK_STATUS(set(d, DEEPGEMMLT_MATMUL_DESC_POINTER_MODE, std::int32_t{5}),
                 DEEPGEMM_STATUS_INVALID_VALUE);
    CHECK_STATUS(set(d, DEEPGEMMLT_MATMUL_DESC_SCALE_TYPE, std::int64_t{0}),
                 DEEPGEMM_STATUS_INVALID_VALUE);
    CHECK_STATUS(set(d, 1000, std::int32_t{0}), DEEPGEMM_STATUS_INVALID_VALUE);
    std::size_t need = 0;
    CHECK_STATUS(deepgemmLtMatmulDescGetAttribute(d.get(), DEEPGEMMLT_MATMUL_DESC_FAST_ACCUM,
                                                  nullptr, 0, &need),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(need == 1);
    CHECK_STATUS(deepgemmLtMatmulDescSetAttribute(nullptr, DEEPGEMMLT_MATMUL_DESC_TRANSA, &need, 4),
                 DEEPGEMM_STATUS_INVALID_VALUE);

    Layout l = make_layout(DEEPGEMM_R_16F, 128, 64, 256);
    std::int32_t batch = 8;
    std::int64_t stride = 128 * 256;
    CHECK_STATUS(deepgemmLtMatrixLayoutSetAttribute(l.get(), DEEPGEMMLT_MATRIX_LAYOUT_BATCH_COUNT,
                                                    &batch, sizeof(batch)),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK_STATUS(deepgemmLtMatrixLayoutSetAttribute(
                     l.get(), DEEPGEMMLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof(stride)),
                 DEEPGEMM_STATUS_SUCCESS);
    std::int64_t got = 0;
    CHECK_STATUS(deepgemmLtMatrixLayoutGetAttribute(
                     l.get(), DEEPGEMMLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &got, sizeof(got),
                     nullptr),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(got == stride);

    deepgemmLtMatmulPreference_t p = nullptr;
    CHECK_STATUS(deepgemmLtMatmulPreferenceCreate(&p), DEEPGEMM_STATUS_SUCCESS);
    Pref pref(p);
    std::uint32_t mode = DEEPGEMMLT_SEARCH_BEST_FIT;
    CHECK_STATUS(deepgemmLtMatmulPreferenceSetAttribute(pref.get(), DEEPGEMMLT_MATMUL_PREF_SEARCH_MODE,
                                                        &mode, sizeof(mode)),
                 DEEPGEMM_STATUS_SUCCESS);
    std::uint64_t mask = 0;
    CHECK_STATUS(deepgemmLtMatmulPreferenceGetAttribute(pref.get(), DEEPGEMMLT_MATMUL_PREF_IMPL_MASK,
                                                        &mask, sizeof(mask), nullptr),
                 DEEPGEMM_STATUS_SUCCESS);
    CHECK(mask == ~std::uint64_t{0});
}

void handles() {
    const bool expect_no_gpu = std::getenv("DEEPGEMM_EXPECT_NO_GPU") != nullptr;
    cudaStream_t stream = nullptr;
    deepgemmLtHandle_t lt = nullptr;
    const deepgemmStatus_t st = deepgemmLtCreate(&lt);
    if (st == DEEPGEMM_STATUS_SUCCESS) {
        CHECK(!expect_no_gpu);
        CHECK(lt != nullptr);
        CHECK_STATUS(deepgemmLtDestroy(lt), DEEPGEMM_STATUS_SUCCESS);
    } else {
        CHECK(st == DEEPGEMM_STATUS_NOT_INITIALIZED);
        CHECK(lt == nullptr);
    }
    deepgemmHandle_t h = nullptr;
    const deepgemmStatus_t hs = deepgemmCreate(&h);
    if (hs == DEEPGEMM_STATUS_SUCCESS) {
        CHECK(!expect_no_gpu);
        CHECK_STATUS(deepgemmSetStream(h, stream), DEEPGEMM_STATUS_SUCCESS);
        CHECK_STATUS(deepgemmDestroy(h), DEEPGEMM_STATUS_SUCCESS);
    } else {
        CHECK(hs == DEEPGEMM_STATUS_NOT_INITIALIZED);
        CHECK(h == nullptr);
    }
    float one = 1.0f;
    CHECK_STATUS(deepgemmLtMatmul(nullptr, nullptr, &one, nullptr, nullptr, nullptr, nullptr,
                                  &one, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0,
                                  stream),
                 DEEPGEMM_STATUS_NOT_INITIALIZED);
    CHECK_STATUS(deepgemmGemmEx(nullptr, DEEPGEMM_OP_T, DEEPGEMM_OP_N, 8, 8, 8, &one, nullptr,
                                DEEPGEMM_R_32F, 8, nullptr, DEEPGEMM_R_32F, 8, &one, nullptr,
                                DEEPGEMM_R_32F, 8, DEEPGEMM_COMPUTE_32F, DEEPGEMM_GEMM_DEFAULT),
                 DEEPGEMM_STATUS_NOT_INITIALIZED);
    const void* const arrays[1] = {nullptr};
    void* const outputs[1] = {nullptr};
    CHECK_STATUS(deepgemmGemmBatchedEx(nullptr, DEEPGEMM_OP_T, DEEPGEMM_OP_N, 8, 8, 8, &one,
                                       arrays, DEEPGEMM_R_32F, 8, arrays, DEEPGEMM_R_32F, 8, &one,
                                       outputs, DEEPGEMM_R_32F, 8, 1, DEEPGEMM_COMPUTE_32F,
                                       DEEPGEMM_GEMM_DEFAULT),
                 DEEPGEMM_STATUS_NOT_INITIALIZED);
}

}  // namespace

int main() {
    CHECK_STATUS(deepgemmLtLoggerSetLevel(0), DEEPGEMM_STATUS_SUCCESS);
    strings_and_versions();
    descriptors();
    handles();
    if (failures != 0) {
        std::fprintf(stderr, "host_api.cpp: %d check(s) failed\n", failures);
        return 1;
    }
    std::printf("host_api.cpp: all checks passed\n");
    return 0;
}
