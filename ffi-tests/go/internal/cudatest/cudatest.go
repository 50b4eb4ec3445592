// Package cudatest gives the Go tests device memory and a CPU reference without a CUDA
// toolkit: the driver API through ffi-tests/common/cuda_driver.h (dlopen of libcuda.so.1)
// and the GEMM reference of ffi-tests/common/ref_gemm.h, the same code the C and C++
// consumers use. (cgo is not allowed in _test.go files, hence a package.)
package cudatest

/*
#cgo CFLAGS: -I${SRCDIR}/../../../common
#cgo LDFLAGS: -ldl -lm
#include "cuda_driver.h"
#include "ref_gemm.h"

static cuda_driver drv;
static int open_driver(void) { return cuda_driver_open(&drv); }
static uint64_t upload(const void *src, size_t n) { return cuda_upload(&drv, src, n); }
static int download(void *dst, uint64_t src, size_t n) {
    int r = drv.CtxSynchronize();
    return r != 0 ? r : drv.MemcpyDtoH(dst, src, n);
}
static int mem_free(uint64_t p) { return drv.MemFree(p); }
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
)

var (
	once    sync.Once
	present bool
	openErr error
)

// Open loads the driver and makes device 0's primary context current (once per process).
// It reports false with a nil error when there is no driver or no device.
func Open() (bool, error) {
	once.Do(func() {
		switch C.open_driver() {
		case 0:
			present = true
		case 1:
		default:
			openErr = errors.New("cudatest: the CUDA driver is there but failed (see stderr)")
		}
	})
	return present, openErr
}

// Upload copies b to new device memory and returns its address.
func Upload(b []byte) (uintptr, error) {
	var p unsafe.Pointer
	if len(b) > 0 {
		p = unsafe.Pointer(&b[0])
	}
	d := C.upload(p, C.size_t(len(b)))
	if d == 0 {
		return 0, fmt.Errorf("cudatest: upload of %d bytes failed", len(b))
	}
	return uintptr(d), nil
}

// Download waits for the device, then copies len(dst) bytes from src.
func Download(dst []byte, src uintptr) error {
	if len(dst) == 0 {
		return nil
	}
	if r := C.download(unsafe.Pointer(&dst[0]), C.uint64_t(src), C.size_t(len(dst))); r != 0 {
		return fmt.Errorf("cudatest: download: CUresult %d", int(r))
	}
	return nil
}

// Free releases memory from Upload.
func Free(p uintptr) { C.mem_free(C.uint64_t(p)) }

// DType is ref_gemm.h's element type.
type DType int

const (
	F32  DType = C.REF_F32
	F16  DType = C.REF_F16
	BF16 DType = C.REF_BF16
)

// Size is the bytes of one element.
func (t DType) Size() int { return int(C.ref_dtype_size(C.ref_dtype(t))) }

// Fill returns n elements in [-1, 1) of type t from the shared generator.
func Fill(seed *uint64, t DType, n int) []byte {
	b := make([]byte, n*t.Size())
	if n > 0 {
		s := C.uint64_t(*seed)
		C.ref_fill(&s, C.ref_dtype(t), unsafe.Pointer(&b[0]), C.size_t(n))
		*seed = uint64(s)
	}
	return b
}

// Gemm is ref_gemm: the column-major m x n reference in float64 (no bias).
func Gemm(transa, transb bool, m, n, k int, alpha float64, ab DType, a []byte, lda int, b []byte,
	ldb int, beta float64, cd DType, c []byte, ldc int) []float64 {
	out := make([]float64, m*n)
	ta, tb := C.int(0), C.int(0)
	if transa {
		ta = 1
	}
	if transb {
		tb = 1
	}
	C.ref_gemm(ta, tb, C.int64_t(m), C.int64_t(n), C.int64_t(k), C.double(alpha), C.ref_dtype(ab),
		unsafe.Pointer(&a[0]), C.int64_t(lda), unsafe.Pointer(&b[0]), C.int64_t(ldb),
		C.double(beta), C.ref_dtype(cd), unsafe.Pointer(&c[0]), C.int64_t(ldc), nil,
		(*C.double)(unsafe.Pointer(&out[0])))
	return out
}

// RelError is ref_rel_error: ||D - ref|| / ||ref||, +Inf when D holds a NaN or infinity.
func RelError(cd DType, d []byte, ldd int, ref []float64, m, n int) float64 {
	return float64(C.ref_rel_error(C.ref_dtype(cd), unsafe.Pointer(&d[0]), C.int64_t(ldd),
		(*C.double)(unsafe.Pointer(&ref[0])), C.int64_t(m), C.int64_t(n)))
}

// Tolerance is ref_tolerance for these input and output types.
func Tolerance(ab, cd DType) float64 {
	return float64(C.ref_tolerance(C.ref_dtype(ab), C.ref_dtype(cd)))
}
