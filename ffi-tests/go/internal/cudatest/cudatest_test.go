package cudatest

// The reference itself, on the CPU: a hand-computed product, the 16-bit encodings, and the
// error measure, so a GPU failure can be blamed on the library and not on the checker.

import (
	"math"
	"testing"
)

func TestReferenceGemm(t *testing.T) {
	// A = [1 2; 3 4], B = [5 6; 7 8] (column-major), C = ones; D = 2*A*B - C.
	f32 := func(v ...float32) []byte {
		seed := uint64(0)
		b := Fill(&seed, F32, len(v)) // right size; overwritten below
		for i, x := range v {
			u := math.Float32bits(x)
			b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
		}
		return b
	}
	a, b, c := f32(1, 3, 2, 4), f32(5, 7, 6, 8), f32(1, 1, 1, 1)
	got := Gemm(false, false, 2, 2, 2, 2, F32, a, 2, b, 2, -1, F32, c, 2)
	want := []float64{2*19 - 1, 2*43 - 1, 2*22 - 1, 2*50 - 1}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("D = %v, want %v", got, want)
		}
	}
	// op(A) = A^T: [1 3; 2 4] * B.
	got = Gemm(true, false, 2, 2, 2, 1, F32, a, 2, b, 2, 0, F32, c, 2)
	want = []float64{1*5 + 3*7, 2*5 + 4*7, 1*6 + 3*8, 2*6 + 4*8}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("A^T B = %v, want %v", got, want)
		}
	}
	if e := RelError(F32, f32(float32(want[0]), float32(want[1]), float32(want[2]), float32(want[3])), 2, want, 2, 2); e != 0 {
		t.Errorf("error of an exact result: %g", e)
	}
	off := f32(float32(want[0])+1, float32(want[1]), float32(want[2]), float32(want[3]))
	if e := RelError(F32, off, 2, want, 2, 2); math.Abs(e-1/math.Sqrt(26*26+38*38+30*30+44*44)) > 1e-12 {
		t.Errorf("error of an off-by-one result: %g", e)
	}
	if e := RelError(F32, f32(float32(math.NaN()), 0, 0, 0), 2, want, 2, 2); !math.IsInf(e, 1) {
		t.Errorf("error with a NaN: %g", e)
	}
}

func TestFillRangeAndTypes(t *testing.T) {
	for _, typ := range []DType{F32, F16, BF16} {
		seed := uint64(42)
		b := Fill(&seed, typ, 1000)
		if len(b) != 1000*typ.Size() || seed == 42 {
			t.Fatalf("type %d: %d bytes, seed %d", typ, len(b), seed)
		}
		ref := Gemm(false, false, 1, 1, 1000, 1, typ, b, 1, Fill(&seed, typ, 1000), 1000, 0, F32, make([]byte, 4), 1)
		if math.IsNaN(ref[0]) || math.Abs(ref[0]) > 1000 {
			t.Errorf("type %d: dot product %g of values in [-1, 1)", typ, ref[0])
		}
	}
	if Tolerance(F32, F32) != 1e-5 || Tolerance(BF16, F32) != 1e-3 || Tolerance(F16, F16) != 1e-2 {
		t.Errorf("tolerances %g %g %g", Tolerance(F32, F32), Tolerance(BF16, F32), Tolerance(F16, F16))
	}
}
