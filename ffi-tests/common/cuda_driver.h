/*
 * The few CUDA driver API functions the consumer programs need for device memory, declared
 * by hand and loaded with dlopen("libcuda.so.1"): CI has no CUDA toolkit (so no cuda.h) and
 * no driver, and the programs must still build and run there. Signatures and the _v2 entry
 * points are those of cuda.h (CUDA 12/13 ABI); CUdeviceptr is 64-bit on every supported
 * platform. Header-only, C99 and C++ alike; link with the dl library (CMAKE_DL_LIBS).
 */
#ifndef DEEPGEMM_CUDA_DRIVER_H
#define DEEPGEMM_CUDA_DRIVER_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int cuda_result;        /* CUresult; 0 is CUDA_SUCCESS */
typedef int cuda_device;        /* CUdevice */
typedef void *cuda_context;     /* CUcontext */
typedef uint64_t cuda_devptr;   /* CUdeviceptr */

typedef struct cuda_driver {
    void *lib;
    cuda_result (*Init)(unsigned int flags);
    cuda_result (*DeviceGetCount)(int *count);
    cuda_result (*DeviceGet)(cuda_device *dev, int ordinal);
    cuda_result (*DevicePrimaryCtxRetain)(cuda_context *ctx, cuda_device dev);
    cuda_result (*CtxSetCurrent)(cuda_context ctx);
    cuda_result (*MemAlloc)(cuda_devptr *ptr, size_t bytes);
    cuda_result (*MemFree)(cuda_devptr ptr);
    cuda_result (*MemcpyHtoD)(cuda_devptr dst, const void *src, size_t bytes);
    cuda_result (*MemcpyDtoH)(void *dst, cuda_devptr src, size_t bytes);
    cuda_result (*CtxSynchronize)(void);
} cuda_driver;

/* dlsym returns an object pointer; copying its bytes into the function pointer is the
 * conversion POSIX guarantees, without the cast ISO C (-Wpedantic) objects to. */
static inline int cuda_driver_sym(void *lib, const char *name, void *fn_ptr, size_t size) {
    void *sym = dlsym(lib, name);
    if (!sym || size != sizeof sym) {
        fprintf(stderr, "cuda_driver: %s not found in libcuda.so.1\n", name);
        return -1;
    }
    memcpy(fn_ptr, &sym, sizeof sym);
    return 0;
}

/*
 * Loads the driver and makes device 0's primary context current on this thread (as the
 * CUDA runtime would). Returns 0 on success; 1 when there is no driver or no device (the
 * caller decides whether that is expected); -1 when the driver is there but failed.
 */
static inline int cuda_driver_open(cuda_driver *d) {
    memset(d, 0, sizeof *d);
    d->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!d->lib) return 1;
#define CUDA_DRIVER_SYM(field, name) \
    if (cuda_driver_sym(d->lib, name, &d->field, sizeof d->field) != 0) return -1
    CUDA_DRIVER_SYM(Init, "cuInit");
    CUDA_DRIVER_SYM(DeviceGetCount, "cuDeviceGetCount");
    CUDA_DRIVER_SYM(DeviceGet, "cuDeviceGet");
    CUDA_DRIVER_SYM(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    CUDA_DRIVER_SYM(CtxSetCurrent, "cuCtxSetCurrent");
    CUDA_DRIVER_SYM(MemAlloc, "cuMemAlloc_v2");
    CUDA_DRIVER_SYM(MemFree, "cuMemFree_v2");
    CUDA_DRIVER_SYM(MemcpyHtoD, "cuMemcpyHtoD_v2");
    CUDA_DRIVER_SYM(MemcpyDtoH, "cuMemcpyDtoH_v2");
    CUDA_DRIVER_SYM(CtxSynchronize, "cuCtxSynchronize");
#undef CUDA_DRIVER_SYM
    int count = 0;
    /* cuInit fails with CUDA_ERROR_NO_DEVICE (100) on a machine with a driver but no GPU. */
    if (d->Init(0) != 0 || d->DeviceGetCount(&count) != 0 || count == 0) return 1;
    cuda_device dev = 0;
    cuda_context ctx = NULL;
    cuda_result r = d->DeviceGet(&dev, 0);
    if (r == 0) r = d->DevicePrimaryCtxRetain(&ctx, dev);
    if (r == 0) r = d->CtxSetCurrent(ctx);
    if (r != 0) {
        fprintf(stderr, "cuda_driver: primary context of device 0: CUresult %d\n", r);
        return -1;
    }
    return 0;
}

/* Device copy of `bytes` bytes of host memory; 0 on failure (reported). */
static inline cuda_devptr cuda_upload(const cuda_driver *d, const void *src, size_t bytes) {
    cuda_devptr p = 0;
    cuda_result r = d->MemAlloc(&p, bytes ? bytes : 1);
    if (r == 0 && bytes) r = d->MemcpyHtoD(p, src, bytes);
    if (r != 0) {
        fprintf(stderr, "cuda_driver: upload of %zu bytes: CUresult %d\n", bytes, r);
        if (p) d->MemFree(p);
        return 0;
    }
    return p;
}

#ifdef __cplusplus
}
#endif

#endif /* DEEPGEMM_CUDA_DRIVER_H */
