// Package deepgemm calls an installed libdeepgemm through its C header with cgo; pkg-config
// finds both:
//
//	PKG_CONFIG_PATH=PREFIX/lib/pkgconfig LD_LIBRARY_PATH=PREFIX/lib go test ./...
//
// It covers the cuBLASLt-style API (descriptors, layouts, preferences, heuristics, matmul)
// and the cuBLAS-style handle API (streams, pointer mode, GemmEx). Every call returns nil
// or a Status, which is an error; errors.Is(err, StatusInvalidValue) works. Objects are
// freed by Close. Device memory is addressed by DevPtr (a CUdeviceptr); alpha and beta are
// float32 on the host, the scale type of every compute type deepgemm implements.
package deepgemm

/*
#cgo pkg-config: deepgemm
#include <stdint.h>
#include <deepgemm.h>

// Device pointers and streams cross as uintptr_t: they are addresses cgo must not take for
// Go pointers (and must not check as such).
static enum deepgemmStatus_t dg_lt_matmul(deepgemmLtHandle_t h, deepgemmLtMatmulDesc_t op,
        const float *alpha, uintptr_t a, deepgemmLtMatrixLayout_t la, uintptr_t b,
        deepgemmLtMatrixLayout_t lb, const float *beta, uintptr_t c, deepgemmLtMatrixLayout_t lc,
        uintptr_t d, deepgemmLtMatrixLayout_t ld, const deepgemmLtMatmulAlgo_t *algo,
        uintptr_t ws, size_t ws_size, uintptr_t stream) {
    return deepgemmLtMatmul(h, op, alpha, (const void *)a, la, (const void *)b, lb, beta,
                            (const void *)c, lc, (void *)d, ld, algo, (void *)ws, ws_size,
                            (deepgemmStream_t)stream);
}

static enum deepgemmStatus_t dg_gemm_ex(deepgemmHandle_t h, int32_t ta, int32_t tb, int32_t m,
        int32_t n, int32_t k, const float *alpha, uintptr_t a, int32_t at, int32_t lda,
        uintptr_t b, int32_t bt, int32_t ldb, const float *beta, uintptr_t c, int32_t ct,
        int32_t ldc, int32_t compute, int32_t algo) {
    return deepgemmGemmEx(h, ta, tb, m, n, k, alpha, (const void *)a, at, lda, (const void *)b,
                          bt, ldb, beta, (void *)c, ct, ldc, compute, algo);
}

static enum deepgemmStatus_t dg_set_stream(deepgemmHandle_t h, uintptr_t s) {
    return deepgemmSetStream(h, (deepgemmStream_t)s);
}

static enum deepgemmStatus_t dg_set_workspace(deepgemmHandle_t h, uintptr_t ws, size_t size) {
    return deepgemmSetWorkspace(h, (void *)ws, size);
}

static enum deepgemmStatus_t dg_get_stream(deepgemmHandle_t h, uintptr_t *s) {
    deepgemmStream_t got;
    enum deepgemmStatus_t st = deepgemmGetStream(h, &got);
    if (st == DEEPGEMM_STATUS_SUCCESS) *s = (uintptr_t)got;
    return st;
}
*/
import "C"

import (
	"fmt"
	"reflect"
	"unsafe"
)

// Status is deepgemmStatus_t (cublasStatus_t's values); every non-success value is an error.
type Status int32

const (
	StatusSuccess         Status = C.DEEPGEMM_STATUS_SUCCESS
	StatusNotInitialized  Status = C.DEEPGEMM_STATUS_NOT_INITIALIZED
	StatusAllocFailed     Status = C.DEEPGEMM_STATUS_ALLOC_FAILED
	StatusInvalidValue    Status = C.DEEPGEMM_STATUS_INVALID_VALUE
	StatusArchMismatch    Status = C.DEEPGEMM_STATUS_ARCH_MISMATCH
	StatusMappingError    Status = C.DEEPGEMM_STATUS_MAPPING_ERROR
	StatusExecutionFailed Status = C.DEEPGEMM_STATUS_EXECUTION_FAILED
	StatusInternalError   Status = C.DEEPGEMM_STATUS_INTERNAL_ERROR
	StatusNotSupported    Status = C.DEEPGEMM_STATUS_NOT_SUPPORTED
	StatusLicenseError    Status = C.DEEPGEMM_STATUS_LICENSE_ERROR
)

// Name is the status's C name, e.g. "DEEPGEMM_STATUS_INVALID_VALUE".
func (s Status) Name() string { return C.GoString(C.deepgemmGetStatusName(C.int32_t(s))) }

// Error is the C name and the library's sentence for it.
func (s Status) Error() string {
	return fmt.Sprintf("%s: %s", s.Name(), C.GoString(C.deepgemmGetStatusString(C.int32_t(s))))
}

func check(st C.enum_deepgemmStatus_t) error {
	if Status(st) == StatusSuccess {
		return nil
	}
	return Status(st)
}

// LtStatusName and LtStatusString are deepgemmLtGetStatusName/String (the same strings as
// the handle API's, as in cuBLAS).
func LtStatusName(s Status) string   { return C.GoString(C.deepgemmLtGetStatusName(C.int32_t(s))) }
func LtStatusString(s Status) string { return C.GoString(C.deepgemmLtGetStatusString(C.int32_t(s))) }

// HeaderVersion is DEEPGEMM_VERSION from the header this package was compiled against
// (MAJOR*10000 + MINOR*100 + PATCH); HeaderMajor/Minor/Patch are its parts.
const (
	HeaderVersion = C.DEEPGEMM_VERSION
	HeaderMajor   = C.DEEPGEMM_VERSION_MAJOR
	HeaderMinor   = C.DEEPGEMM_VERSION_MINOR
	HeaderPatch   = C.DEEPGEMM_VERSION_PATCH
)

// Version is the loaded library's deepgemmLtGetVersion().
func Version() int { return int(C.deepgemmLtGetVersion()) }

// GetVersion is the loaded library's deepgemmGetVersion.
func GetVersion() (int, error) {
	var v C.int32_t
	if err := check(C.deepgemmGetVersion(nil, &v)); err != nil {
		return 0, err
	}
	return int(v), nil
}

// SetLogLevel is deepgemmLtLoggerSetLevel (0 off ... 5 API trace).
func SetLogLevel(level int) error { return check(C.deepgemmLtLoggerSetLevel(C.int32_t(level))) }

// The values of cudaDataType_t, cublasComputeType_t, cublasOperation_t and cuBLASLt's enums
// this package's users need, straight from the header.
type (
	DataType         int32
	ComputeType      int32
	Operation        int32
	PointerMode      int32
	MathMode         int32
	MatmulDescAttr   int32
	MatrixLayoutAttr int32
	PreferenceAttr   int32
	Order            int32
	Epilogue         uint32
	DevPtr           uintptr // a CUdeviceptr
	Stream           uintptr // a CUstream / cudaStream_t; 0 is the legacy default stream
	GemmAlgo         int32
)

const (
	R32F  DataType = C.DEEPGEMM_R_32F
	R16F  DataType = C.DEEPGEMM_R_16F
	R16BF DataType = C.DEEPGEMM_R_16BF
	R64F  DataType = C.DEEPGEMM_R_64F
	R8I   DataType = C.DEEPGEMM_R_8I

	Compute32F         ComputeType = C.DEEPGEMM_COMPUTE_32F
	Compute32FPedantic ComputeType = C.DEEPGEMM_COMPUTE_32F_PEDANTIC
	Compute32FFastTF32 ComputeType = C.DEEPGEMM_COMPUTE_32F_FAST_TF32
	Compute64F         ComputeType = C.DEEPGEMM_COMPUTE_64F

	OpN     Operation = C.DEEPGEMM_OP_N
	OpT     Operation = C.DEEPGEMM_OP_T
	OpC     Operation = C.DEEPGEMM_OP_C
	OpConjG Operation = C.DEEPGEMM_OP_CONJG

	PointerModeHost   PointerMode = C.DEEPGEMM_POINTER_MODE_HOST
	PointerModeDevice PointerMode = C.DEEPGEMM_POINTER_MODE_DEVICE

	DefaultMath      MathMode = C.DEEPGEMM_DEFAULT_MATH
	PedanticMath     MathMode = C.DEEPGEMM_PEDANTIC_MATH
	TF32TensorOpMath MathMode = C.DEEPGEMM_TF32_TENSOR_OP_MATH

	GemmDefault         GemmAlgo = C.DEEPGEMM_GEMM_DEFAULT
	GemmDefaultTensorOp GemmAlgo = C.DEEPGEMM_GEMM_DEFAULT_TENSOR_OP

	MatmulDescComputeType  MatmulDescAttr = C.DEEPGEMMLT_MATMUL_DESC_COMPUTE_TYPE
	MatmulDescScaleType    MatmulDescAttr = C.DEEPGEMMLT_MATMUL_DESC_SCALE_TYPE
	MatmulDescPointerMode  MatmulDescAttr = C.DEEPGEMMLT_MATMUL_DESC_POINTER_MODE
	MatmulDescTransA       MatmulDescAttr = C.DEEPGEMMLT_MATMUL_DESC_TRANSA
	MatmulDescTransB       MatmulDescAttr = C.DEEPGEMMLT_MATMUL_DESC_TRANSB
	MatmulDescEpilogue     MatmulDescAttr = C.DEEPGEMMLT_MATMUL_DESC_EPILOGUE
	MatmulDescBiasPointer  MatmulDescAttr = C.DEEPGEMMLT_MATMUL_DESC_BIAS_POINTER
	MatmulDescAmaxDPointer MatmulDescAttr = C.DEEPGEMMLT_MATMUL_DESC_AMAX_D_POINTER
	MatmulDescFastAccum    MatmulDescAttr = C.DEEPGEMMLT_MATMUL_DESC_FAST_ACCUM
	MatmulDescBiasDataType MatmulDescAttr = C.DEEPGEMMLT_MATMUL_DESC_BIAS_DATA_TYPE

	MatrixLayoutType               MatrixLayoutAttr = C.DEEPGEMMLT_MATRIX_LAYOUT_TYPE
	MatrixLayoutOrder              MatrixLayoutAttr = C.DEEPGEMMLT_MATRIX_LAYOUT_ORDER
	MatrixLayoutRows               MatrixLayoutAttr = C.DEEPGEMMLT_MATRIX_LAYOUT_ROWS
	MatrixLayoutCols               MatrixLayoutAttr = C.DEEPGEMMLT_MATRIX_LAYOUT_COLS
	MatrixLayoutLd                 MatrixLayoutAttr = C.DEEPGEMMLT_MATRIX_LAYOUT_LD
	MatrixLayoutBatchCount         MatrixLayoutAttr = C.DEEPGEMMLT_MATRIX_LAYOUT_BATCH_COUNT
	MatrixLayoutStridedBatchOffset MatrixLayoutAttr = C.DEEPGEMMLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET

	PrefSearchMode         PreferenceAttr = C.DEEPGEMMLT_MATMUL_PREF_SEARCH_MODE
	PrefMaxWorkspaceBytes  PreferenceAttr = C.DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES
	PrefMinAlignmentABytes PreferenceAttr = C.DEEPGEMMLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES
	PrefMaxWavesCount      PreferenceAttr = C.DEEPGEMMLT_MATMUL_PREF_MAX_WAVES_COUNT
	PrefImplMask           PreferenceAttr = C.DEEPGEMMLT_MATMUL_PREF_IMPL_MASK

	OrderCol Order = C.DEEPGEMMLT_ORDER_COL
	OrderRow Order = C.DEEPGEMMLT_ORDER_ROW

	EpilogueDefault  Epilogue = C.DEEPGEMMLT_EPILOGUE_DEFAULT
	EpilogueBias     Epilogue = C.DEEPGEMMLT_EPILOGUE_BIAS
	EpilogueReluBias Epilogue = C.DEEPGEMMLT_EPILOGUE_RELU_BIAS
	EpilogueGeluBias Epilogue = C.DEEPGEMMLT_EPILOGUE_GELU_BIAS
)

// Attribute values cross as the bytes of a fixed-size Go value whose size is the C type's
// (cuBLASLt fixes the C type of each attribute): int8, int32, uint32, int64, uint64,
// float32, uintptr and types defined on them (Operation, Epilogue, DevPtr, ...).
func fixedSize(k reflect.Kind) bool {
	switch k {
	case reflect.Int8, reflect.Uint8, reflect.Int16, reflect.Uint16, reflect.Int32,
		reflect.Uint32, reflect.Int64, reflect.Uint64, reflect.Float32, reflect.Float64,
		reflect.Uintptr:
		return true
	}
	return false
}

// valueBytes is a copy of v's bytes (host byte order, as C reads them).
func valueBytes(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || !fixedSize(rv.Kind()) {
		return nil, fmt.Errorf("deepgemm: attribute value of type %T is not a fixed-size number", v)
	}
	p := reflect.New(rv.Type())
	p.Elem().Set(rv)
	return unsafe.Slice((*byte)(p.UnsafePointer()), rv.Type().Size()), nil
}

// outBytes is the memory behind out, a non-nil pointer to a fixed-size number.
func outBytes(out any) ([]byte, error) {
	rv := reflect.ValueOf(out)
	if !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.IsNil() || !fixedSize(rv.Elem().Kind()) {
		return nil, fmt.Errorf("deepgemm: attribute output %T is not a pointer to a fixed-size number", out)
	}
	return unsafe.Slice((*byte)(rv.UnsafePointer()), rv.Elem().Type().Size()), nil
}

type setter func(buf unsafe.Pointer, size C.size_t) C.enum_deepgemmStatus_t
type getter func(buf unsafe.Pointer, size C.size_t, written *C.size_t) C.enum_deepgemmStatus_t

func setAttr(set setter, v any) error {
	b, err := valueBytes(v)
	if err != nil {
		return err
	}
	return check(set(unsafe.Pointer(&b[0]), C.size_t(len(b))))
}

// getAttr writes the attribute into *out only on success and returns the bytes written.
func getAttr(get getter, out any) (int, error) {
	b, err := outBytes(out)
	if err != nil {
		return 0, err
	}
	var written C.size_t
	if err := check(get(unsafe.Pointer(&b[0]), C.size_t(len(b)), &written)); err != nil {
		return 0, err
	}
	return int(written), nil
}

// sizeOf is the attribute's size in bytes (the size query: no buffer, size 0).
func sizeOf(get getter) (int, error) {
	var written C.size_t
	if err := check(get(nil, 0, &written)); err != nil {
		return 0, err
	}
	return int(written), nil
}

// MatmulDesc is a deepgemmLtMatmulDesc_t.
type MatmulDesc struct{ p C.deepgemmLtMatmulDesc_t }

// NewMatmulDesc is deepgemmLtMatmulDescCreate.
func NewMatmulDesc(compute ComputeType, scale DataType) (*MatmulDesc, error) {
	var p C.deepgemmLtMatmulDesc_t
	if err := check(C.deepgemmLtMatmulDescCreate(&p, C.deepgemmComputeType_t(compute),
		C.deepgemmDataType_t(scale))); err != nil {
		return nil, err
	}
	return &MatmulDesc{p}, nil
}

func (d *MatmulDesc) ptr() C.deepgemmLtMatmulDesc_t {
	if d == nil {
		return nil
	}
	return d.p
}

// Close is deepgemmLtMatmulDescDestroy; a second Close (or one on nil) does nothing.
func (d *MatmulDesc) Close() error {
	if d == nil || d.p == nil {
		return nil
	}
	err := check(C.deepgemmLtMatmulDescDestroy(d.p))
	d.p = nil
	return err
}

// Set is deepgemmLtMatmulDescSetAttribute with v's bytes.
func (d *MatmulDesc) Set(attr MatmulDescAttr, v any) error {
	return setAttr(func(buf unsafe.Pointer, size C.size_t) C.enum_deepgemmStatus_t {
		return C.deepgemmLtMatmulDescSetAttribute(d.ptr(), C.deepgemmLtMatmulDescAttributes_t(attr), buf, size)
	}, v)
}

func (d *MatmulDesc) getter(attr MatmulDescAttr) getter {
	return func(buf unsafe.Pointer, size C.size_t, written *C.size_t) C.enum_deepgemmStatus_t {
		return C.deepgemmLtMatmulDescGetAttribute(d.ptr(), C.deepgemmLtMatmulDescAttributes_t(attr), buf, size, written)
	}
}

// Get is deepgemmLtMatmulDescGetAttribute into *out; it returns the bytes written.
func (d *MatmulDesc) Get(attr MatmulDescAttr, out any) (int, error) {
	return getAttr(d.getter(attr), out)
}

// SizeOf is the attribute's size in bytes.
func (d *MatmulDesc) SizeOf(attr MatmulDescAttr) (int, error) { return sizeOf(d.getter(attr)) }

// MatrixLayout is a deepgemmLtMatrixLayout_t.
type MatrixLayout struct{ p C.deepgemmLtMatrixLayout_t }

// NewMatrixLayout is deepgemmLtMatrixLayoutCreate (column-major unless its Order is set).
func NewMatrixLayout(t DataType, rows, cols uint64, ld int64) (*MatrixLayout, error) {
	var p C.deepgemmLtMatrixLayout_t
	if err := check(C.deepgemmLtMatrixLayoutCreate(&p, C.deepgemmDataType_t(t), C.uint64_t(rows),
		C.uint64_t(cols), C.int64_t(ld))); err != nil {
		return nil, err
	}
	return &MatrixLayout{p}, nil
}

func (l *MatrixLayout) ptr() C.deepgemmLtMatrixLayout_t {
	if l == nil {
		return nil
	}
	return l.p
}

// Close is deepgemmLtMatrixLayoutDestroy; a second Close (or one on nil) does nothing.
func (l *MatrixLayout) Close() error {
	if l == nil || l.p == nil {
		return nil
	}
	err := check(C.deepgemmLtMatrixLayoutDestroy(l.p))
	l.p = nil
	return err
}

// Set is deepgemmLtMatrixLayoutSetAttribute with v's bytes.
func (l *MatrixLayout) Set(attr MatrixLayoutAttr, v any) error {
	return setAttr(func(buf unsafe.Pointer, size C.size_t) C.enum_deepgemmStatus_t {
		return C.deepgemmLtMatrixLayoutSetAttribute(l.ptr(), C.deepgemmLtMatrixLayoutAttribute_t(attr), buf, size)
	}, v)
}

// Get is deepgemmLtMatrixLayoutGetAttribute into *out; it returns the bytes written.
func (l *MatrixLayout) Get(attr MatrixLayoutAttr, out any) (int, error) {
	return getAttr(func(buf unsafe.Pointer, size C.size_t, written *C.size_t) C.enum_deepgemmStatus_t {
		return C.deepgemmLtMatrixLayoutGetAttribute(l.ptr(), C.deepgemmLtMatrixLayoutAttribute_t(attr), buf, size, written)
	}, out)
}

// Preference is a deepgemmLtMatmulPreference_t.
type Preference struct {
	p C.deepgemmLtMatmulPreference_t
}

// NewPreference is deepgemmLtMatmulPreferenceCreate.
func NewPreference() (*Preference, error) {
	var p C.deepgemmLtMatmulPreference_t
	if err := check(C.deepgemmLtMatmulPreferenceCreate(&p)); err != nil {
		return nil, err
	}
	return &Preference{p}, nil
}

func (p *Preference) ptr() C.deepgemmLtMatmulPreference_t {
	if p == nil {
		return nil
	}
	return p.p
}

// Close is deepgemmLtMatmulPreferenceDestroy; a second Close (or one on nil) does nothing.
func (p *Preference) Close() error {
	if p == nil || p.p == nil {
		return nil
	}
	err := check(C.deepgemmLtMatmulPreferenceDestroy(p.p))
	p.p = nil
	return err
}

// Set is deepgemmLtMatmulPreferenceSetAttribute with v's bytes.
func (p *Preference) Set(attr PreferenceAttr, v any) error {
	return setAttr(func(buf unsafe.Pointer, size C.size_t) C.enum_deepgemmStatus_t {
		return C.deepgemmLtMatmulPreferenceSetAttribute(p.ptr(), C.deepgemmLtMatmulPreferenceAttributes_t(attr), buf, size)
	}, v)
}

// Get is deepgemmLtMatmulPreferenceGetAttribute into *out; it returns the bytes written.
func (p *Preference) Get(attr PreferenceAttr, out any) (int, error) {
	return getAttr(func(buf unsafe.Pointer, size C.size_t, written *C.size_t) C.enum_deepgemmStatus_t {
		return C.deepgemmLtMatmulPreferenceGetAttribute(p.ptr(), C.deepgemmLtMatmulPreferenceAttributes_t(attr), buf, size, written)
	}, out)
}

// LtHandle is a deepgemmLtHandle_t. A nil *LtHandle passes NULL (NOT_INITIALIZED, as in
// cuBLASLt).
type LtHandle struct{ p C.deepgemmLtHandle_t }

// NewLtHandle is deepgemmLtCreate: StatusNotInitialized without a driver or a GPU.
func NewLtHandle() (*LtHandle, error) {
	var p C.deepgemmLtHandle_t
	if err := check(C.deepgemmLtCreate(&p)); err != nil {
		return nil, err
	}
	return &LtHandle{p}, nil
}

func (h *LtHandle) ptr() C.deepgemmLtHandle_t {
	if h == nil {
		return nil
	}
	return h.p
}

// Close is deepgemmLtDestroy; a second Close (or one on nil) does nothing.
func (h *LtHandle) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	err := check(C.deepgemmLtDestroy(h.p))
	h.p = nil
	return err
}

// Algo is an opaque deepgemmLtMatmulAlgo_t from the heuristic.
type Algo struct{ a C.deepgemmLtMatmulAlgo_t }

// HeuristicResult is one deepgemmLtMatmulHeuristicResult_t.
type HeuristicResult struct {
	Algo          Algo
	WorkspaceSize int
	State         Status
	WavesCount    float32
}

// Heuristic is deepgemmLtMatmulAlgoGetHeuristic for up to n candidates, best first.
func (h *LtHandle) Heuristic(op *MatmulDesc, a, b, c, d *MatrixLayout, pref *Preference, n int) ([]HeuristicResult, error) {
	if n < 1 {
		n = 1
	}
	raw := make([]C.deepgemmLtMatmulHeuristicResult_t, n)
	var count C.int32_t
	if err := check(C.deepgemmLtMatmulAlgoGetHeuristic(h.ptr(), op.ptr(), a.ptr(), b.ptr(), c.ptr(),
		d.ptr(), pref.ptr(), C.int32_t(n), &raw[0], &count)); err != nil {
		return nil, err
	}
	out := make([]HeuristicResult, int(count))
	for i := range out {
		out[i] = HeuristicResult{Algo{raw[i].algo}, int(raw[i].workspaceSize),
			Status(raw[i].state), float32(raw[i].wavesCount)}
	}
	return out, nil
}

// Matmul is deepgemmLtMatmul: D = alpha * op(A) op(B) + beta * C (+ epilogue) on stream.
// algo nil lets deepgemm choose.
func (h *LtHandle) Matmul(op *MatmulDesc, alpha float32, a DevPtr, la *MatrixLayout, b DevPtr,
	lb *MatrixLayout, beta float32, c DevPtr, lc *MatrixLayout, d DevPtr, ld *MatrixLayout,
	algo *Algo, workspace DevPtr, workspaceSize int, stream Stream) error {
	var ap *C.deepgemmLtMatmulAlgo_t
	if algo != nil {
		ap = &algo.a
	}
	al, be := C.float(alpha), C.float(beta)
	return check(C.dg_lt_matmul(h.ptr(), op.ptr(), &al, C.uintptr_t(a), la.ptr(), C.uintptr_t(b),
		lb.ptr(), &be, C.uintptr_t(c), lc.ptr(), C.uintptr_t(d), ld.ptr(), ap,
		C.uintptr_t(workspace), C.size_t(workspaceSize), C.uintptr_t(stream)))
}

// Handle is a cuBLAS-style deepgemmHandle_t. A nil *Handle passes NULL.
type Handle struct{ p C.deepgemmHandle_t }

// NewHandle is deepgemmCreate: StatusNotInitialized without a driver or a GPU.
func NewHandle() (*Handle, error) {
	var p C.deepgemmHandle_t
	if err := check(C.deepgemmCreate(&p)); err != nil {
		return nil, err
	}
	return &Handle{p}, nil
}

func (h *Handle) ptr() C.deepgemmHandle_t {
	if h == nil {
		return nil
	}
	return h.p
}

// Close is deepgemmDestroy; a second Close (or one on nil) does nothing.
func (h *Handle) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	err := check(C.deepgemmDestroy(h.p))
	h.p = nil
	return err
}

// SetStream is deepgemmSetStream.
func (h *Handle) SetStream(s Stream) error { return check(C.dg_set_stream(h.ptr(), C.uintptr_t(s))) }

// SetWorkspace is deepgemmSetWorkspace: device memory (256-byte aligned) that later GemmEx
// calls on this handle may use; SetStream resets it to none, as cublasSetStream does.
func (h *Handle) SetWorkspace(ws DevPtr, bytes uintptr) error {
	return check(C.dg_set_workspace(h.ptr(), C.uintptr_t(ws), C.size_t(bytes)))
}

// Stream is deepgemmGetStream.
func (h *Handle) Stream() (Stream, error) {
	var s C.uintptr_t
	if err := check(C.dg_get_stream(h.ptr(), &s)); err != nil {
		return 0, err
	}
	return Stream(s), nil
}

// SetMathMode is deepgemmSetMathMode: with TF32TensorOpMath, fp32 GemmEx calls at
// ComputeType 32F run on TF32 tensor cores, as cublasSetMathMode makes them.
func (h *Handle) SetMathMode(m MathMode) error {
	return check(C.deepgemmSetMathMode(h.ptr(), C.deepgemmMath_t(m)))
}

// SetPointerMode is deepgemmSetPointerMode. GemmEx here takes host scalars, so it needs
// PointerModeHost (the default).
func (h *Handle) SetPointerMode(m PointerMode) error {
	return check(C.deepgemmSetPointerMode(h.ptr(), C.deepgemmPointerMode_t(m)))
}

// PointerMode is deepgemmGetPointerMode.
func (h *Handle) PointerMode() (PointerMode, error) {
	var m C.deepgemmPointerMode_t
	if err := check(C.deepgemmGetPointerMode(h.ptr(), &m)); err != nil {
		return 0, err
	}
	return PointerMode(m), nil
}

// GemmEx is deepgemmGemmEx with host alpha and beta: C = alpha * op(A) op(B) + beta * C.
func (h *Handle) GemmEx(ta, tb Operation, m, n, k int, alpha float32, a DevPtr, at DataType,
	lda int, b DevPtr, bt DataType, ldb int, beta float32, c DevPtr, ct DataType, ldc int,
	compute ComputeType, algo GemmAlgo) error {
	al, be := C.float(alpha), C.float(beta)
	return check(C.dg_gemm_ex(h.ptr(), C.int32_t(ta), C.int32_t(tb), C.int32_t(m), C.int32_t(n),
		C.int32_t(k), &al, C.uintptr_t(a), C.int32_t(at), C.int32_t(lda), C.uintptr_t(b),
		C.int32_t(bt), C.int32_t(ldb), &be, C.uintptr_t(c), C.int32_t(ct), C.int32_t(ldc),
		C.int32_t(compute), C.int32_t(algo)))
}
