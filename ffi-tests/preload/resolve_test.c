/* How the preload finds the real cuBLAS when the program did not load it: this program
 * links no cuBLAS and reaches cublasGemmEx through dlsym (so only the preload defines it).
 *   resolve_test found    libcublas.so.13 (the fake) is on LD_LIBRARY_PATH: the preload's
 *                         last resort, dlopen by name, must find it, never itself, and
 *                         forward the call there;
 *   resolve_test missing  no libcublas.so.13 anywhere: CUBLAS_STATUS_NOT_INITIALIZED. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "fake_cublas.h"

typedef cublasStatus_t (*gemm_ex_fn)(cublasHandle_t, int, int, int, int, int, const void *,
                                     const void *, int, int, const void *, int, int,
                                     const void *, void *, int, int, int, int);
typedef const struct fake_call *(*calls_fn)(int *);

int main(int argc, char **argv) {
    if (argc != 2 || (strcmp(argv[1], "found") != 0 && strcmp(argv[1], "missing") != 0)) {
        fprintf(stderr, "usage: resolve_test found|missing\n");
        return 2;
    }
    int found = strcmp(argv[1], "found") == 0;
    gemm_ex_fn gemm_ex;
    /* POSIX's way to turn dlsym's object pointer into a function pointer. */
    *(void **)(&gemm_ex) = dlsym(RTLD_DEFAULT, "cublasGemmEx");
    if (gemm_ex == NULL) {
        fprintf(stderr, "no cublasGemmEx in the process: is LD_PRELOAD set?\n");
        return 1;
    }
    const int32_t alpha = 1, beta = 0;
    void *const A = (void *)0x1000, *const B = (void *)0x2000, *const C = (void *)0x3000;
    /* int8: forwarded from the arguments alone, nothing read from the (NULL) handle. */
    cublasStatus_t st = gemm_ex(NULL, CUBLAS_OP_N, CUBLAS_OP_N, 4, 5, 6, &alpha, A, CUDA_R_8I, 4,
                                B, CUDA_R_8I, 6, &beta, C, CUDA_R_32I, 4, CUBLAS_COMPUTE_32I,
                                CUBLAS_GEMM_DEFAULT);
    if (!found) {
        if (st != CUBLAS_STATUS_NOT_INITIALIZED) {
            fprintf(stderr, "FAIL: status %d without a cuBLAS, expected NOT_INITIALIZED\n", st);
            return 1;
        }
        printf("all checks passed (missing)\n");
        return 0;
    }
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "FAIL: status %d, the fake returns SUCCESS\n", st);
        return 1;
    }
    void *lib = dlopen("libcublas.so.13", RTLD_NOLOAD | RTLD_LAZY);
    calls_fn calls;
    *(void **)(&calls) = lib ? dlsym(lib, "fake_blas_calls") : NULL;
    if (calls == NULL) {
        fprintf(stderr, "FAIL: the fake libcublas.so.13 was not loaded by the preload\n");
        return 1;
    }
    int n;
    const struct fake_call *c = calls(&n);
    if (n != 1 || strcmp(c[0].name, "cublasGemmEx") != 0 || c[0].args[3] != 4 ||
        c[0].args[4] != 5 || c[0].args[5] != 6 || c[0].args[7] != (uint64_t)(uintptr_t)A) {
        fprintf(stderr, "FAIL: the fake recorded %d calls, not this one\n", n);
        return 1;
    }
    printf("all checks passed (found)\n");
    return 0;
}
