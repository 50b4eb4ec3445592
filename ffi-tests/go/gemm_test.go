package deepgemm

// GEMMs on the GPU through both APIs, checked against ffi-tests/common/ref_gemm.h. Without a
// GPU the test checks that the library and the driver agree there is none, then skips.

import (
	"errors"
	"testing"

	"deepgemm/internal/cudatest"
)

type gemmCase struct {
	name           string
	transa, transb bool
	m, n, k        int
	ab, cd         cudatest.DType
	alpha, beta    float32
	lt             bool // deepgemmLtMatmul with the heuristic's algorithm, else deepgemmGemmEx
}

func dataType(t cudatest.DType) DataType {
	switch t {
	case cudatest.F16:
		return R16F
	case cudatest.BF16:
		return R16BF
	}
	return R32F
}

func op(trans bool) Operation {
	if trans {
		return OpT
	}
	return OpN
}

func upload(t *testing.T, b []byte) DevPtr {
	t.Helper()
	p, err := cudatest.Upload(b)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cudatest.Free(p) })
	return DevPtr(p)
}

func runGemm(t *testing.T, lt *LtHandle, h *Handle, c gemmCase) {
	lda, acols := c.m+1, c.k
	if c.transa {
		lda, acols = c.k+1, c.m
	}
	ldb, bcols := c.k, c.n
	if c.transb {
		ldb, bcols = c.n, c.k
	}
	ldc := c.m + 2
	seed := uint64(0x60_0000 + c.m*13 + c.k)
	a := cudatest.Fill(&seed, c.ab, lda*acols)
	b := cudatest.Fill(&seed, c.ab, ldb*bcols)
	cm := cudatest.Fill(&seed, c.cd, ldc*c.n)
	da, db, dc := upload(t, a), upload(t, b), upload(t, cm)

	if c.lt {
		desc, err := NewMatmulDesc(Compute32F, R32F)
		if err != nil {
			t.Fatal(err)
		}
		defer desc.Close()
		if err := desc.Set(MatmulDescTransA, op(c.transa)); err != nil {
			t.Fatal(err)
		}
		if err := desc.Set(MatmulDescTransB, op(c.transb)); err != nil {
			t.Fatal(err)
		}
		arows, brows := lda-1, ldb
		la, err := NewMatrixLayout(dataType(c.ab), uint64(arows), uint64(acols), int64(lda))
		if err != nil {
			t.Fatal(err)
		}
		defer la.Close()
		lb, err := NewMatrixLayout(dataType(c.ab), uint64(brows), uint64(bcols), int64(ldb))
		if err != nil {
			t.Fatal(err)
		}
		defer lb.Close()
		lc, err := NewMatrixLayout(dataType(c.cd), uint64(c.m), uint64(c.n), int64(ldc))
		if err != nil {
			t.Fatal(err)
		}
		defer lc.Close()
		pref, err := NewPreference()
		if err != nil {
			t.Fatal(err)
		}
		defer pref.Close()
		res, err := lt.Heuristic(desc, la, lb, lc, lc, pref, 4)
		if err != nil || len(res) == 0 || res[0].State != StatusSuccess {
			t.Fatalf("heuristic: %v, %d results", err, len(res))
		}
		// D = C in place: the result replaces C's copy on the device.
		if err := lt.Matmul(desc, c.alpha, da, la, db, lb, c.beta, dc, lc, dc, lc, &res[0].Algo,
			0, 0, 0); err != nil {
			t.Fatalf("Matmul: %v", err)
		}
	} else if err := h.GemmEx(op(c.transa), op(c.transb), c.m, c.n, c.k, c.alpha, da,
		dataType(c.ab), lda, db, dataType(c.ab), ldb, c.beta, dc, dataType(c.cd), ldc,
		Compute32F, GemmDefault); err != nil {
		t.Fatalf("GemmEx: %v", err)
	}

	d := make([]byte, len(cm))
	if err := cudatest.Download(d, uintptr(dc)); err != nil {
		t.Fatal(err)
	}
	ref := cudatest.Gemm(c.transa, c.transb, c.m, c.n, c.k, float64(c.alpha), c.ab, a, lda, b,
		ldb, float64(c.beta), c.cd, cm, ldc)
	errRel, tol := cudatest.RelError(c.cd, d, ldc, ref, c.m, c.n), cudatest.Tolerance(c.ab, c.cd)
	t.Logf("%s: rel err %.3e (tolerance %.0e)", c.name, errRel, tol)
	if !(errRel <= tol) {
		t.Errorf("%s: rel err %.3e over %.0e", c.name, errRel, tol)
	}
}

func TestGEMM(t *testing.T) {
	gpu, err := cudatest.Open()
	if err != nil {
		t.Fatal(err)
	}
	lt, ltErr := NewLtHandle()
	h, hErr := NewHandle()
	if !gpu {
		// No driver or no device: deepgemm must say the same, in both APIs.
		if !errors.Is(ltErr, StatusNotInitialized) || !errors.Is(hErr, StatusNotInitialized) {
			t.Fatalf("no GPU, but deepgemmLtCreate: %v, deepgemmCreate: %v", ltErr, hErr)
		}
		if expectGPU() {
			t.Fatal("DEEPGEMM_EXPECT_GPU is set but there is no GPU")
		}
		t.Skip("no GPU: the library answers NOT_INITIALIZED; GEMMs not run")
	}
	if ltErr != nil || hErr != nil {
		t.Fatalf("GPU present, but deepgemmLtCreate: %v, deepgemmCreate: %v", ltErr, hErr)
	}
	defer lt.Close()
	defer h.Close()
	if expectNoGPU() {
		t.Error("DEEPGEMM_EXPECT_NO_GPU is set but there is a GPU")
	}
	for _, c := range []gemmCase{
		{"Lt bf16 TN 128x64x256 -> bf16", true, false, 128, 64, 256, cudatest.BF16, cudatest.BF16, 1, 0, true},
		{"Lt f16 NN 77x50x96 -> f32, beta 0.5", false, false, 77, 50, 96, cudatest.F16, cudatest.F32, 1, 0.5, true},
		{"GemmEx f32 NT 50x40x30, alpha -2", false, true, 50, 40, 30, cudatest.F32, cudatest.F32, -2, 1, false},
	} {
		c := c
		t.Run(c.name, func(t *testing.T) { runGemm(t, lt, h, c) })
	}
}
