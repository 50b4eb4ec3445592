package deepgemm

// Host-side behaviour through the installed library: versions, status strings, enum values,
// attribute round-trips and their errors, handles without a GPU. Needs no GPU.
//   DEEPGEMM_EXPECT_VERSION=X.Y.Z  the version the installed files must carry
//   DEEPGEMM_EXPECT_NO_GPU=1 / DEEPGEMM_EXPECT_GPU=1  what Create must answer

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

func expectNoGPU() bool { return os.Getenv("DEEPGEMM_EXPECT_NO_GPU") != "" }
func expectGPU() bool   { return os.Getenv("DEEPGEMM_EXPECT_GPU") != "" }

func TestVersions(t *testing.T) {
	if HeaderVersion != HeaderMajor*10000+HeaderMinor*100+HeaderPatch {
		t.Fatalf("DEEPGEMM_VERSION %d is not MAJOR*10000+MINOR*100+PATCH", HeaderVersion)
	}
	if Version() != HeaderVersion {
		t.Errorf("deepgemmLtGetVersion() = %d, header %d", Version(), HeaderVersion)
	}
	v, err := GetVersion()
	if err != nil || v != HeaderVersion {
		t.Errorf("deepgemmGetVersion = %d, %v; header %d", v, err, HeaderVersion)
	}
	if want := os.Getenv("DEEPGEMM_EXPECT_VERSION"); want != "" {
		if got := fmt.Sprintf("%d.%d.%d", HeaderMajor, HeaderMinor, HeaderPatch); got != want {
			t.Errorf("installed header is version %s, expected %s", got, want)
		}
	}
}

func TestStatusStrings(t *testing.T) {
	names := map[Status]string{
		StatusSuccess:         "DEEPGEMM_STATUS_SUCCESS",
		StatusNotInitialized:  "DEEPGEMM_STATUS_NOT_INITIALIZED",
		StatusAllocFailed:     "DEEPGEMM_STATUS_ALLOC_FAILED",
		StatusInvalidValue:    "DEEPGEMM_STATUS_INVALID_VALUE",
		StatusArchMismatch:    "DEEPGEMM_STATUS_ARCH_MISMATCH",
		StatusMappingError:    "DEEPGEMM_STATUS_MAPPING_ERROR",
		StatusExecutionFailed: "DEEPGEMM_STATUS_EXECUTION_FAILED",
		StatusInternalError:   "DEEPGEMM_STATUS_INTERNAL_ERROR",
		StatusNotSupported:    "DEEPGEMM_STATUS_NOT_SUPPORTED",
		StatusLicenseError:    "DEEPGEMM_STATUS_LICENSE_ERROR",
	}
	// cublasStatus_t's numbers.
	numbers := map[Status]int32{StatusSuccess: 0, StatusNotInitialized: 1, StatusAllocFailed: 3,
		StatusInvalidValue: 7, StatusArchMismatch: 8, StatusMappingError: 11,
		StatusExecutionFailed: 13, StatusInternalError: 14, StatusNotSupported: 15,
		StatusLicenseError: 16}
	for s, name := range names {
		if int32(s) != numbers[s] {
			t.Errorf("%s = %d, cuBLAS has %d", name, int32(s), numbers[s])
		}
		if s.Name() != name || LtStatusName(s) != name {
			t.Errorf("status %d: names %q / %q, want %q", int32(s), s.Name(), LtStatusName(s), name)
		}
		if msg := s.Error(); !strings.HasPrefix(msg, name+": ") || len(msg) <= len(name)+2 {
			t.Errorf("status %d: Error() = %q", int32(s), msg)
		}
		if LtStatusString(s) == "" || LtStatusString(s) == "unknown status" {
			t.Errorf("status %d has no sentence", int32(s))
		}
	}
	for _, s := range []Status{-3, 2, 12345} {
		if s.Name() != "DEEPGEMM_STATUS_UNKNOWN" || LtStatusString(s) != "unknown status" {
			t.Errorf("status %d: %q / %q", int32(s), s.Name(), LtStatusString(s))
		}
	}
}

// A few of the values the header shares with cuBLAS / cuBLASLt (same numbers, by design).
func TestEnumValuesAreCuBLAS(t *testing.T) {
	checks := []struct {
		name      string
		got, want int64
	}{
		{"R_16F", int64(R16F), 2}, {"R_16BF", int64(R16BF), 14}, {"R_32F", int64(R32F), 0},
		{"COMPUTE_32F", int64(Compute32F), 68}, {"COMPUTE_32F_FAST_TF32", int64(Compute32FFastTF32), 77},
		{"OP_T", int64(OpT), 1}, {"OP_CONJG", int64(OpConjG), 3},
		{"GEMM_DEFAULT", int64(GemmDefault), -1}, {"GEMM_DEFAULT_TENSOR_OP", int64(GemmDefaultTensorOp), 99},
		{"MATMUL_DESC_TRANSA", int64(MatmulDescTransA), 3}, {"MATMUL_DESC_EPILOGUE", int64(MatmulDescEpilogue), 7},
		{"MATMUL_DESC_BIAS_DATA_TYPE", int64(MatmulDescBiasDataType), 26},
		{"MATRIX_LAYOUT_STRIDED_BATCH_OFFSET", int64(MatrixLayoutStridedBatchOffset), 6},
		{"MATMUL_PREF_MAX_WORKSPACE_BYTES", int64(PrefMaxWorkspaceBytes), 1},
		{"EPILOGUE_GELU_BIAS", int64(EpilogueGeluBias), 36}, {"ORDER_ROW", int64(OrderRow), 1},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %d, cuBLAS has %d", c.name, c.got, c.want)
		}
	}
}

func mustDesc(t *testing.T, c ComputeType, s DataType) *MatmulDesc {
	t.Helper()
	d, err := NewMatmulDesc(c, s)
	if err != nil {
		t.Fatalf("NewMatmulDesc: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func TestMatmulDescAttributes(t *testing.T) {
	d := mustDesc(t, Compute32FFastTF32, R32F)
	var ct int32
	if n, err := d.Get(MatmulDescComputeType, &ct); err != nil || n != 4 || ComputeType(ct) != Compute32FFastTF32 {
		t.Errorf("compute type: %d (%d bytes), %v", ct, n, err)
	}
	var epi Epilogue
	if _, err := d.Get(MatmulDescEpilogue, &epi); err != nil || epi != EpilogueDefault {
		t.Errorf("default epilogue: %d, %v", epi, err)
	}

	if err := d.Set(MatmulDescTransA, OpT); err != nil {
		t.Fatalf("set TRANSA: %v", err)
	}
	var op Operation
	if n, err := d.Get(MatmulDescTransA, &op); err != nil || n != 4 || op != OpT {
		t.Errorf("TRANSA: %d (%d bytes), %v", op, n, err)
	}
	if err := d.Set(MatmulDescEpilogue, EpilogueGeluBias); err != nil {
		t.Fatalf("set EPILOGUE: %v", err)
	}
	if _, err := d.Get(MatmulDescEpilogue, &epi); err != nil || epi != 36 {
		t.Errorf("EPILOGUE: %d, %v", epi, err)
	}
	bias := DevPtr(0x7f0000001000)
	if err := d.Set(MatmulDescBiasPointer, bias); err != nil {
		t.Fatalf("set BIAS_POINTER: %v", err)
	}
	var biasOut DevPtr
	if n, err := d.Get(MatmulDescBiasPointer, &biasOut); err != nil || n != 8 || biasOut != bias {
		t.Errorf("BIAS_POINTER: %#x (%d bytes), %v", biasOut, n, err)
	}
	if err := d.Set(MatmulDescFastAccum, int8(1)); err != nil {
		t.Fatalf("set FAST_ACCUM: %v", err)
	}
	var fast int8
	if n, err := d.Get(MatmulDescFastAccum, &fast); err != nil || n != 1 || fast != 1 {
		t.Errorf("FAST_ACCUM: %d (%d bytes), %v", fast, n, err)
	}
	if n, err := d.SizeOf(MatmulDescAmaxDPointer); err != nil || n != 8 {
		t.Errorf("size of AMAX_D_POINTER: %d, %v", n, err)
	}

	// Errors: wrong size, unknown attribute, invalid values; nothing changes.
	invalid := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, StatusInvalidValue) {
			t.Errorf("%s: %v, want INVALID_VALUE", what, err)
		}
	}
	invalid("TRANSA as int64", d.Set(MatmulDescTransA, int64(1)))
	invalid("unknown attribute 9", d.Set(MatmulDescAttr(9), OpT))
	invalid("TRANSA = CONJG", d.Set(MatmulDescTransA, OpConjG))
	invalid("EPILOGUE = 3", d.Set(MatmulDescEpilogue, Epilogue(3)))
	invalid("POINTER_MODE = 5", d.Set(MatmulDescPointerMode, int32(5)))
	small := int16(-1)
	_, err := d.Get(MatmulDescTransA, &small)
	invalid("TRANSA into 2 bytes", err)
	if small != -1 {
		t.Errorf("a failed Get wrote %d", small)
	}
	if _, err := d.Get(MatmulDescTransA, &op); err != nil || op != OpT {
		t.Errorf("TRANSA after the errors: %d, %v", op, err)
	}
	var nilDesc *MatmulDesc
	invalid("NULL descriptor", nilDesc.Set(MatmulDescTransA, OpT))

	_, err = NewMatmulDesc(ComputeType(0), R32F)
	invalid("compute type 0", err)
	if err := d.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestLayoutAndPreference(t *testing.T) {
	l, err := NewMatrixLayout(R16BF, 4096, 1024, 4096)
	if err != nil {
		t.Fatalf("NewMatrixLayout: %v", err)
	}
	defer l.Close()
	var rows uint64
	var ld int64
	var typ int32
	if n, err := l.Get(MatrixLayoutRows, &rows); err != nil || n != 8 || rows != 4096 {
		t.Errorf("ROWS: %d (%d bytes), %v", rows, n, err)
	}
	if _, err := l.Get(MatrixLayoutLd, &ld); err != nil || ld != 4096 {
		t.Errorf("LD: %d, %v", ld, err)
	}
	if _, err := l.Get(MatrixLayoutType, &typ); err != nil || DataType(typ) != R16BF {
		t.Errorf("TYPE: %d, %v", typ, err)
	}
	if err := l.Set(MatrixLayoutOrder, OrderRow); err != nil {
		t.Errorf("set ORDER: %v", err)
	}
	var order Order
	if _, err := l.Get(MatrixLayoutOrder, &order); err != nil || order != OrderRow {
		t.Errorf("ORDER: %d, %v", order, err)
	}
	if err := l.Set(MatrixLayoutBatchCount, int32(8)); err != nil {
		t.Errorf("BATCH_COUNT 8: %v", err)
	}
	if err := l.Set(MatrixLayoutBatchCount, int32(0)); !errors.Is(err, StatusInvalidValue) {
		t.Errorf("BATCH_COUNT 0: %v", err)
	}
	if err := l.Set(MatrixLayoutStridedBatchOffset, int64(1)<<33); err != nil {
		t.Errorf("STRIDED_BATCH_OFFSET: %v", err)
	}
	for _, bad := range []struct {
		t    DataType
		r, c uint64
		ld   int64
		why  string
	}{{DataType(99), 2, 2, 2, "unknown type"}, {R32F, 1 << 63, 2, 2, "rows over INT64_MAX"},
		{R32F, 2, 2, -1, "negative ld"}} {
		if _, err := NewMatrixLayout(bad.t, bad.r, bad.c, bad.ld); !errors.Is(err, StatusInvalidValue) {
			t.Errorf("%s: %v", bad.why, err)
		}
	}

	p, err := NewPreference()
	if err != nil {
		t.Fatalf("NewPreference: %v", err)
	}
	defer p.Close()
	var ws uint64 = 99
	if _, err := p.Get(PrefMaxWorkspaceBytes, &ws); err != nil || ws != 0 {
		t.Errorf("default MAX_WORKSPACE_BYTES: %d, %v", ws, err)
	}
	if err := p.Set(PrefMaxWorkspaceBytes, uint64(32<<20)); err != nil {
		t.Errorf("set MAX_WORKSPACE_BYTES: %v", err)
	}
	if _, err := p.Get(PrefMaxWorkspaceBytes, &ws); err != nil || ws != 32<<20 {
		t.Errorf("MAX_WORKSPACE_BYTES: %d, %v", ws, err)
	}
	if err := p.Set(PrefMaxWavesCount, float32(2.5)); err != nil {
		t.Errorf("set MAX_WAVES_COUNT: %v", err)
	}
	var waves float32
	if _, err := p.Get(PrefMaxWavesCount, &waves); err != nil || waves != 2.5 {
		t.Errorf("MAX_WAVES_COUNT: %v, %v", waves, err)
	}
	var mask uint64
	if _, err := p.Get(PrefImplMask, &mask); err != nil || mask != ^uint64(0) {
		t.Errorf("IMPL_MASK: %#x, %v", mask, err)
	}
	var align uint32
	if _, err := p.Get(PrefMinAlignmentABytes, &align); err != nil || align != 256 {
		t.Errorf("MIN_ALIGNMENT_A_BYTES: %d, %v", align, err)
	}
	if _, err := p.Get(PrefImplMask, mask); err == nil {
		t.Errorf("Get into a non-pointer succeeded")
	}
}

func TestHandles(t *testing.T) {
	lt, err := NewLtHandle()
	switch {
	case err == nil:
		if expectNoGPU() {
			t.Errorf("deepgemmLtCreate succeeded where no GPU was expected")
		}
		if err := lt.Close(); err != nil {
			t.Errorf("LtHandle.Close: %v", err)
		}
	case errors.Is(err, StatusNotInitialized):
		if expectGPU() {
			t.Errorf("deepgemmLtCreate: %v where a GPU was expected", err)
		}
	default:
		t.Errorf("deepgemmLtCreate: %v, want success or NOT_INITIALIZED", err)
	}
	h, err := NewHandle()
	switch {
	case err == nil:
		if expectNoGPU() {
			t.Errorf("deepgemmCreate succeeded where no GPU was expected")
		}
		if err := h.SetStream(0); err != nil {
			t.Errorf("SetStream: %v", err)
		}
		if s, err := h.Stream(); err != nil || s != 0 {
			t.Errorf("Stream: %#x, %v", s, err)
		}
		if err := h.SetPointerMode(PointerModeDevice); err != nil {
			t.Errorf("SetPointerMode: %v", err)
		}
		if m, err := h.PointerMode(); err != nil || m != PointerModeDevice {
			t.Errorf("PointerMode: %d, %v", m, err)
		}
		if err := h.Close(); err != nil {
			t.Errorf("Handle.Close: %v", err)
		}
	case errors.Is(err, StatusNotInitialized):
		if expectGPU() {
			t.Errorf("deepgemmCreate: %v where a GPU was expected", err)
		}
	default:
		t.Errorf("deepgemmCreate: %v, want success or NOT_INITIALIZED", err)
	}

	// NULL handles are NOT_INITIALIZED, as in cuBLAS and cuBLASLt.
	var nilLt *LtHandle
	var nilH *Handle
	notInit := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, StatusNotInitialized) {
			t.Errorf("%s on a NULL handle: %v, want NOT_INITIALIZED", what, err)
		}
	}
	notInit("Matmul", nilLt.Matmul(nil, 1, 0, nil, 0, nil, 0, 0, nil, 0, nil, nil, 0, 0, 0))
	_, err = nilLt.Heuristic(nil, nil, nil, nil, nil, nil, 2)
	notInit("Heuristic", err)
	notInit("SetStream", nilH.SetStream(0))
	notInit("GemmEx", nilH.GemmEx(OpN, OpN, 4, 4, 4, 1, 0, R16BF, 4, 0, R16BF, 4, 0, 0, R16BF, 4,
		Compute32F, GemmDefault))
	if err := nilLt.Close(); err != nil {
		t.Errorf("Close(NULL): %v", err)
	}
	if err := SetLogLevel(0); err != nil {
		t.Errorf("SetLogLevel(0): %v", err)
	}
	if err := SetLogLevel(9); !errors.Is(err, StatusInvalidValue) {
		t.Errorf("SetLogLevel(9): %v, want INVALID_VALUE (levels are 0..5)", err)
	}
}
