// GEMMs through the installed library's cuBLAS-style handle API from C++17, checked against
// the CPU reference (ffi-tests/common/ref_gemm.h): deepgemmGemmEx with fp16 and fp32 (alpha
// and beta on the host and, with POINTER_MODE_DEVICE, in device memory) and
// deepgemmGemmStridedBatchedEx with bf16 inputs and an fp32 result. Device memory comes
// from the driver API loaded with dlopen (common/cuda_driver.h); RAII owns everything.
//
// Without a GPU it checks the library says so (NOT_INITIALIZED, consistent with the driver).
//   DEEPGEMM_EXPECT_GPU=1     no GPU is a failure (scripts/gpu-install-check.sh sets it)
//   DEEPGEMM_EXPECT_NO_GPU=1  a GPU is a failure (set by the CPU-only test driver)
#include <deepgemm.h>

#include "cuda_driver.h"
#include "ref_gemm.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const char *what, int line) {
    if (!ok) {
        std::fprintf(stderr, "gemm.cpp:%d: check failed: %s\n", line, what);
        ++failures;
    }
}

bool status_ok(deepgemmStatus_t st, const char *what, int line) {
    if (st != DEEPGEMM_STATUS_SUCCESS) {
        std::fprintf(stderr, "gemm.cpp:%d: %s returned %s\n", line, what,
                     deepgemmGetStatusName(st));
        ++failures;
        return false;
    }
    return true;
}

#define CHECK(c) check((c), #c, __LINE__)
#define OK(call) status_ok((call), #call, __LINE__)

// Device memory owned like a std::vector; 0 when the upload failed (already reported).
class DeviceBuffer {
public:
    DeviceBuffer(const cuda_driver &cu, const void *host, std::size_t bytes)
        : cu_(cu), bytes_(bytes), ptr_(cuda_upload(&cu, host, bytes)) {}
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
    ~DeviceBuffer() {
        if (ptr_) cu_.MemFree(ptr_);
    }
    explicit operator bool() const { return ptr_ != 0; }
    void *get() const { return reinterpret_cast<void *>(static_cast<std::uintptr_t>(ptr_)); }
    bool download(void *host) const {
        return cu_.CtxSynchronize() == 0 && cu_.MemcpyDtoH(host, ptr_, bytes_) == 0;
    }

private:
    const cuda_driver &cu_;
    std::size_t bytes_;
    cuda_devptr ptr_;
};

deepgemmDataType_t dg_type(ref_dtype t) {
    return t == REF_F32 ? DEEPGEMM_R_32F : t == REF_F16 ? DEEPGEMM_R_16F : DEEPGEMM_R_16BF;
}

// Host bytes of `n` elements of type t, filled from the shared generator.
std::vector<unsigned char> random_bytes(std::uint64_t &seed, ref_dtype t, std::size_t n) {
    std::vector<unsigned char> v(n * ref_dtype_size(t));
    ref_fill(&seed, t, v.data(), n);
    return v;
}

struct Case {
    const char *name;
    bool transa, transb;
    int m, n, k, batch;
    ref_dtype ab, cd;
    float alpha, beta;
    bool device_scalars;  // POINTER_MODE_DEVICE (GemmEx only)
};

void report(const Case &c, double err, double tol) {
    std::printf("%-48s rel err %.3e (tolerance %.0e)%s\n", c.name, err, tol,
                err <= tol ? "" : "  FAILED");
    CHECK(err <= tol);
}

void run_case(const cuda_driver &cu, deepgemmHandle_t h, const Case &c) {
    const int lda = (c.transa ? c.k : c.m) + 1, acols = c.transa ? c.m : c.k;
    const int ldb = (c.transb ? c.n : c.k) + 2, bcols = c.transb ? c.k : c.n;
    const int ldc = c.m + 3;
    // Batch strides leave a gap after each matrix: matrix i starts at i * stride exactly.
    const std::int64_t sa = std::int64_t{lda} * acols + 5, sb = std::int64_t{ldb} * bcols + 7,
                       sc = std::int64_t{ldc} * c.n + 9;
    const std::size_t na = static_cast<std::size_t>(sa * c.batch),
                      nb = static_cast<std::size_t>(sb * c.batch),
                      nc = static_cast<std::size_t>(sc * c.batch);
    std::uint64_t seed = 0xc0ffee00u + static_cast<std::uint64_t>(c.m * 7 + c.k);
    auto a = random_bytes(seed, c.ab, na), b = random_bytes(seed, c.ab, nb),
         cm = random_bytes(seed, c.cd, nc);
    DeviceBuffer da(cu, a.data(), a.size()), db(cu, b.data(), b.size()),
        dc(cu, cm.data(), cm.size()), dalpha(cu, &c.alpha, sizeof c.alpha),
        dbeta(cu, &c.beta, sizeof c.beta);
    if (!da || !db || !dc || !dalpha || !dbeta) {
        ++failures;
        return;
    }
    const deepgemmOperation_t ta = c.transa ? DEEPGEMM_OP_T : DEEPGEMM_OP_N;
    const deepgemmOperation_t tb = c.transb ? DEEPGEMM_OP_T : DEEPGEMM_OP_N;
    if (!OK(deepgemmSetPointerMode(h, c.device_scalars ? DEEPGEMM_POINTER_MODE_DEVICE
                                                       : DEEPGEMM_POINTER_MODE_HOST)))
        return;
    const void *alpha = c.device_scalars ? dalpha.get() : &c.alpha;
    const void *beta = c.device_scalars ? dbeta.get() : &c.beta;
    bool launched;
    if (c.batch == 1) {
        launched = OK(deepgemmGemmEx(h, ta, tb, c.m, c.n, c.k, alpha, da.get(), dg_type(c.ab),
                                     lda, db.get(), dg_type(c.ab), ldb, beta, dc.get(),
                                     dg_type(c.cd), ldc, DEEPGEMM_COMPUTE_32F,
                                     DEEPGEMM_GEMM_DEFAULT));
    } else {
        launched = OK(deepgemmGemmStridedBatchedEx(
            h, ta, tb, c.m, c.n, c.k, alpha, da.get(), dg_type(c.ab), lda, sa, db.get(),
            dg_type(c.ab), ldb, sb, beta, dc.get(), dg_type(c.cd), ldc, sc, c.batch,
            DEEPGEMM_COMPUTE_32F, DEEPGEMM_GEMM_DEFAULT_TENSOR_OP));
    }
    if (!launched) return;
    std::vector<unsigned char> d(cm.size());
    if (!dc.download(d.data())) {
        std::fprintf(stderr, "%s: synchronize or copy back failed\n", c.name);
        ++failures;
        return;
    }
    const std::size_t sab = ref_dtype_size(c.ab), scd = ref_dtype_size(c.cd);
    std::vector<double> ref(static_cast<std::size_t>(c.m) * c.n);
    double worst = 0.0;
    bool gaps_ok = true;
    for (int i = 0; i < c.batch; ++i) {
        ref_gemm(c.transa, c.transb, c.m, c.n, c.k, c.alpha, c.ab, a.data() + i * sa * sab, lda,
                 b.data() + i * sb * sab, ldb, c.beta, c.cd, cm.data() + i * sc * scd, ldc,
                 nullptr, ref.data());
        const double err = ref_rel_error(c.cd, d.data() + i * sc * scd, ldc, ref.data(), c.m, c.n);
        worst = err > worst ? err : worst;
        // Padding rows and the gap after each matrix are not part of any result.
        for (int j = 0; j < c.n; ++j)
            for (int r = c.m; r < ldc; ++r) {
                const std::size_t at = static_cast<std::size_t>(i * sc + r + j * ldc) * scd;
                gaps_ok &= std::memcmp(&d[at], &cm[at], scd) == 0;
            }
        const std::size_t gap = static_cast<std::size_t>(i * sc + std::int64_t{ldc} * c.n) * scd;
        gaps_ok &= std::memcmp(&d[gap], &cm[gap], static_cast<std::size_t>(sc) * scd -
                                                      static_cast<std::size_t>(ldc) * c.n * scd) ==
                   0;
    }
    report(c, worst, ref_tolerance(c.ab, c.cd));
    CHECK(gaps_ok);
}

const Case kCases[] = {
    {"GemmEx f16 TN 256x128x512 -> f16, beta 0.5", true, false, 256, 128, 512, 1, REF_F16,
     REF_F16, 1.0f, 0.5f, false},
    {"GemmEx f32 NN 100x60x70, device alpha/beta", false, false, 100, 60, 70, 1, REF_F32, REF_F32,
     2.0f, -1.0f, true},
    {"GemmStridedBatchedEx bf16 NT 96x80x160 x3 -> f32", false, true, 96, 80, 160, 3, REF_BF16,
     REF_F32, 0.75f, 0.0f, false},
};

}  // namespace

int main() {
    const bool expect_gpu = std::getenv("DEEPGEMM_EXPECT_GPU") != nullptr;
    const bool expect_no_gpu = std::getenv("DEEPGEMM_EXPECT_NO_GPU") != nullptr;
    CHECK(deepgemmLoggerSetLevel(0) == DEEPGEMM_STATUS_SUCCESS);

    deepgemmHandle_t h = nullptr;
    const deepgemmStatus_t st = deepgemmCreate(&h);
    cuda_driver cu;
    const int drv = cuda_driver_open(&cu);
    if (st == DEEPGEMM_STATUS_NOT_INITIALIZED) {
        deepgemmLtHandle_t lt = nullptr;
        CHECK(deepgemmLtCreate(&lt) == DEEPGEMM_STATUS_NOT_INITIALIZED);
        CHECK(h == nullptr && lt == nullptr);
        CHECK(drv == 1);
        CHECK(!expect_gpu);
        std::printf("gemm.cpp: no GPU (deepgemmCreate: %s); GEMMs not run\n",
                    deepgemmGetStatusName(st));
    } else {
        CHECK(st == DEEPGEMM_STATUS_SUCCESS);
        CHECK(!expect_no_gpu);
        CHECK(drv == 0);
        if (st == DEEPGEMM_STATUS_SUCCESS && drv == 0) {
            for (const Case &c : kCases) run_case(cu, h, c);
        }
        CHECK(deepgemmDestroy(h) == DEEPGEMM_STATUS_SUCCESS);
    }
    if (failures != 0) {
        std::fprintf(stderr, "gemm.cpp: %d check(s) failed\n", failures);
        return 1;
    }
    std::printf("gemm.cpp: all checks passed\n");
    return 0;
}
