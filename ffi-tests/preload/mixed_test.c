/* A CUDA 11 host (it links libcublas.so.11 and libcublasLt.so.11, whose cuBLAS predates
 * cublasGetSmCountTarget: the fakes built with that function renamed away) on a machine whose
 * loader path has a cuBLAS 13 too. The preload must take every function from the host's
 * copies: looked up one by one, the missing getter once loaded libcublas.so.13 (and its
 * cuBLASLt, which then took every cuBLASLt call, handed .so.11 handles). */
#include <dlfcn.h>
#include <stdio.h>

#include "fake_cublas.h"

typedef const struct fake_call *(*calls_fn)(int *);

/* Calls the fake cuBLASLt `so` recorded, or -1 when it is not loaded. */
static int lt_calls(const char *so) {
    void *h = dlopen(so, RTLD_NOLOAD | RTLD_LAZY);
    if (h == NULL) {
        return -1;
    }
    calls_fn f;
    *(void **)(&f) = dlsym(h, "fake_lt_calls");
    int n = -1;
    if (f != NULL) {
        f(&n);
    }
    dlclose(h);
    return n;
}

int main(void) {
    cublasHandle_t h;
    if (cublasCreate_v2(&h) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "FAIL: cublasCreate_v2\n");
        return 1;
    }
    const float alpha = 1, beta = 0;
    void *const A = (void *)0x100000, *const B = (void *)0x200000, *const C = (void *)0x300000;
    /* bf16: a call the preload decides (reading the handle's state), then forwards (no GPU). */
    cublasStatus_t st = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &alpha, A,
                                     CUDA_R_16BF, 64, B, CUDA_R_16BF, 64, &beta, C, CUDA_R_16BF,
                                     64, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "FAIL: cublasGemmEx status %d\n", st);
        return 1;
    }
    /* A NULL descriptor: forwarded as invalid, to the host's cuBLASLt. */
    cublasLtMatmul((void *)0x1, NULL, &alpha, A, NULL, B, NULL, &beta, C, NULL, C, NULL, NULL,
                   NULL, 0, NULL);
    int n11 = lt_calls("libcublasLt.so.11"), n13 = lt_calls("libcublasLt.so.13");
    void *blas13 = dlopen("libcublas.so.13", RTLD_NOLOAD | RTLD_LAZY);
    printf("cublasLtMatmul calls recorded by libcublasLt.so.11: %d, by libcublasLt.so.13: %d; "
           "libcublas.so.13 %s\n",
           n11, n13, blas13 ? "loaded" : "not loaded");
    if (n11 < 1 || n13 != -1 || blas13 != NULL) {
        fprintf(stderr, "FAIL: a call reached or loaded the other major version\n");
        return 1;
    }
    printf("all checks passed (mixed)\n");
    return 0;
}
