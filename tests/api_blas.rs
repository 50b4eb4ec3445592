//! The cuBLAS-style handle API through the C exports, on a recording handle (no GPU):
//! stream and pointer mode, GemmEx / GemmStridedBatchedEx argument validation, and what
//! reaches `gemm::run`.

mod api_common;
use api_common::*;
use std::ffi::c_void;
use std::ptr::{null, null_mut};

use deepgemm::ffi::testing;
use deepgemm::plan::DeviceSpec;
use deepgemm::problem::Scalar;
use deepgemm::types::{Math, Op, ScalarType};

const A: usize = 0x10000;
const B: usize = 0x20000;
const C: usize = 0x30000;

struct H(deepgemmHandle_t);
impl Drop for H {
    fn drop(&mut self) {
        assert_eq!(deepgemmDestroy(self.0), DEEPGEMM_STATUS_SUCCESS);
    }
}

fn handle() -> H {
    H(testing::recording_handle(DeviceSpec::H200))
}

/// GemmEx arguments, defaults: C(4x3) = A^T B with A 5x4 (lda 5), B 5x3 (ldb 5), C ldc 4,
/// bf16 in, fp32 out, COMPUTE_32F.
#[derive(Clone, Copy)]
struct Ex {
    transa: i32,
    transb: i32,
    m: i32,
    n: i32,
    k: i32,
    a: usize,
    at: i32,
    lda: i32,
    b: usize,
    bt: i32,
    ldb: i32,
    c: usize,
    ct: i32,
    ldc: i32,
    compute: i32,
    algo: i32,
}

const EX: Ex = Ex {
    transa: DEEPGEMM_OP_T,
    transb: DEEPGEMM_OP_N,
    m: 4,
    n: 3,
    k: 5,
    a: A,
    at: DEEPGEMM_R_16BF,
    lda: 5,
    b: B,
    bt: DEEPGEMM_R_16BF,
    ldb: 5,
    c: C,
    ct: DEEPGEMM_R_32F,
    ldc: 4,
    compute: DEEPGEMM_COMPUTE_32F,
    algo: DEEPGEMM_GEMM_DEFAULT,
};

fn gemm_ex(h: &H, x: Ex, alpha: *const c_void, beta: *const c_void) -> deepgemmStatus_t {
    deepgemmGemmEx(
        h.0,
        x.transa,
        x.transb,
        x.m,
        x.n,
        x.k,
        alpha,
        x.a as *const c_void,
        x.at,
        x.lda,
        x.b as *const c_void,
        x.bt,
        x.ldb,
        beta,
        x.c as *mut c_void,
        x.ct,
        x.ldc,
        x.compute,
        x.algo,
    )
}

/// GemmStridedBatchedEx on EX's arguments, alpha 1 and beta 0, with these batch strides of A,
/// B and C.
fn strided(h: &H, batch: i32, [sa, sb, sc]: [i64; 3]) -> deepgemmStatus_t {
    let (alpha, beta) = (1.0f32, 0.0f32);
    deepgemmGemmStridedBatchedEx(
        h.0,
        EX.transa,
        EX.transb,
        EX.m,
        EX.n,
        EX.k,
        (&alpha as *const f32).cast(),
        A as *const c_void,
        EX.at,
        EX.lda,
        sa,
        B as *const c_void,
        EX.bt,
        EX.ldb,
        sb,
        (&beta as *const f32).cast(),
        C as *mut c_void,
        EX.ct,
        EX.ldc,
        sc,
        batch,
        EX.compute,
        EX.algo,
    )
}

fn run(h: &H, x: Ex) -> deepgemmStatus_t {
    let (alpha, beta) = (1.5f32, 0.25f32);
    gemm_ex(
        h,
        x,
        (&alpha as *const f32).cast(),
        (&beta as *const f32).cast(),
    )
}

#[test]
fn stream_and_pointer_mode() {
    let h = handle();
    let mut s = 0x99usize as deepgemmStream_t;
    assert_eq!(deepgemmGetStream(h.0, &mut s), DEEPGEMM_STATUS_SUCCESS);
    assert!(s.is_null(), "a new handle uses the default stream");
    assert_eq!(
        deepgemmSetStream(h.0, 0xabc0usize as deepgemmStream_t),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(deepgemmGetStream(h.0, &mut s), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(s as usize, 0xabc0);
    let mut mode = 7;
    assert_eq!(
        deepgemmGetPointerMode(h.0, &mut mode),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(mode, DEEPGEMM_POINTER_MODE_HOST);
    assert_eq!(
        deepgemmSetPointerMode(h.0, DEEPGEMM_POINTER_MODE_DEVICE),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        deepgemmGetPointerMode(h.0, &mut mode),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(mode, DEEPGEMM_POINTER_MODE_DEVICE);
    for bad in [-1, 2, 100] {
        assert_eq!(
            deepgemmSetPointerMode(h.0, bad),
            DEEPGEMM_STATUS_INVALID_VALUE
        );
    }
    assert_eq!(
        deepgemmGetPointerMode(h.0, &mut mode),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(mode, DEEPGEMM_POINTER_MODE_DEVICE);
    // NULL out-pointers and NULL handles.
    assert_eq!(
        deepgemmGetStream(h.0, null_mut()),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        deepgemmGetPointerMode(h.0, null_mut()),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        deepgemmSetStream(null_mut(), null_mut()),
        DEEPGEMM_STATUS_NOT_INITIALIZED
    );
    assert_eq!(
        deepgemmGetStream(null_mut(), &mut s),
        DEEPGEMM_STATUS_NOT_INITIALIZED
    );
    assert_eq!(
        deepgemmSetPointerMode(null_mut(), 0),
        DEEPGEMM_STATUS_NOT_INITIALIZED
    );
    assert_eq!(
        deepgemmGetPointerMode(null_mut(), &mut mode),
        DEEPGEMM_STATUS_NOT_INITIALIZED
    );
    assert_eq!(deepgemmDestroy(null_mut()), DEEPGEMM_STATUS_SUCCESS);
}

#[test]
fn gemm_ex_maps_onto_the_column_major_problem() {
    let h = handle();
    assert_eq!(
        deepgemmSetStream(h.0, 0x5100usize as deepgemmStream_t),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    let c = testing::recorded(h.0)[0];
    let p = c.problem;
    assert_eq!((p.m, p.n, p.k, p.batch), (4, 3, 5, 1));
    assert_eq!(
        (p.ab_type, p.cd_type, p.math),
        (ScalarType::BF16, ScalarType::F32, Math::Mma)
    );
    assert_eq!((p.op_a, p.op_b), (Op::T, Op::N));
    // op(A)(i, kk) = A[kk + i*lda] for a transposed column-major A.
    assert_eq!((p.a.row, p.a.col), (5, 1));
    assert_eq!((p.b.row, p.b.col), (1, 5));
    assert_eq!((p.c.row, p.c.col), (1, 4));
    assert_eq!(p.c, p.d);
    assert_eq!(
        (c.ptrs.a, c.ptrs.b, c.ptrs.c, c.ptrs.d),
        (A as u64, B as u64, C as u64, C as u64)
    );
    assert_eq!(
        (c.ptrs.alpha, c.ptrs.beta),
        (Scalar::Host(1.5), Scalar::Host(0.25))
    );
    assert_eq!(c.stream, 0x5100);
    assert_eq!(c.plan, None);

    // TF32 passes through.
    let x = Ex {
        at: DEEPGEMM_R_32F,
        bt: DEEPGEMM_R_32F,
        compute: DEEPGEMM_COMPUTE_32F_FAST_TF32,
        ..EX
    };
    assert_eq!(run(&h, x), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(testing::recorded(h.0)[1].problem.math, Math::MmaTf32);
}

#[test]
fn gemm_ex_rejects_bad_arguments() {
    let h = handle();
    let bad: Vec<(&str, Ex)> = vec![
        ("m < 0", Ex { m: -1, ..EX }),
        ("n < 0", Ex { n: -1, ..EX }),
        ("k < 0", Ex { k: -1, ..EX }),
        ("transa", Ex { transa: 3, ..EX }),
        ("transa", Ex { transa: -1, ..EX }),
        ("transb", Ex { transb: 7, ..EX }),
        ("lda < k (A transposed)", Ex { lda: 4, ..EX }),
        (
            "lda < m (A not transposed)",
            Ex {
                transa: DEEPGEMM_OP_N,
                lda: 3,
                ..EX
            },
        ),
        ("ldb < k", Ex { ldb: 4, ..EX }),
        (
            "ldb < n (B transposed)",
            Ex {
                transb: DEEPGEMM_OP_T,
                ldb: 2,
                ..EX
            },
        ),
        ("ldc < m", Ex { ldc: 3, ..EX }),
        ("lda <= 0", Ex { m: 0, lda: 0, ..EX }),
        ("negative lda", Ex { lda: -5, ..EX }),
        ("unknown compute type", Ex { compute: 66, ..EX }),
        ("unknown compute type", Ex { compute: 80, ..EX }),
        (
            "unknown data type",
            Ex {
                at: 99,
                bt: 99,
                ..EX
            },
        ),
        ("A NULL", Ex { a: 0, ..EX }),
        ("C NULL", Ex { c: 0, ..EX }),
        ("A misaligned", Ex { a: A + 1, ..EX }),
        // Neither a compute type nor a cudaDataType (cuBLAS 10's form), below 64 as above.
        ("compute 40", Ex { compute: 40, ..EX }),
    ];
    for (name, x) in &bad {
        assert_eq!(run(&h, *x), DEEPGEMM_STATUS_INVALID_VALUE, "{name}");
    }
    for algo in [-2, 24, 98, 116, 999, i32::MIN] {
        assert_eq!(
            run(&h, Ex { algo, ..EX }),
            DEEPGEMM_STATUS_INVALID_VALUE,
            "algo {algo}"
        );
    }
    let unsupported: Vec<(&str, Ex)> = vec![
        (
            "A and B types differ",
            Ex {
                bt: DEEPGEMM_R_16F,
                ..EX
            },
        ),
        (
            "fp8",
            Ex {
                at: DEEPGEMM_R_8F_E4M3,
                bt: DEEPGEMM_R_8F_E4M3,
                ..EX
            },
        ),
        (
            "compute 16F",
            Ex {
                at: 2,
                bt: 2,
                ct: 2,
                compute: DEEPGEMM_COMPUTE_16F,
                ..EX
            },
        ),
        (
            "compute 64F",
            Ex {
                at: 1,
                bt: 1,
                ct: 1,
                compute: DEEPGEMM_COMPUTE_64F,
                ..EX
            },
        ),
        (
            "emulated",
            Ex {
                at: 0,
                bt: 0,
                ct: 0,
                compute: DEEPGEMM_COMPUTE_32F_EMULATED_16BFX9,
                ..EX
            },
        ),
        // cuBLAS 10's cudaDataType compute types with no compute type to migrate to, as
        // cublas_api.h's overloads return.
        ("legacy R_8I", Ex { compute: 3, ..EX }),
        (
            "legacy R_16BF",
            Ex {
                compute: DEEPGEMM_R_16BF,
                ..EX
            },
        ),
        // ... and those it migrates to a compute type deepgemm does not run (fp16 sums).
        (
            "legacy R_16F",
            Ex {
                at: 2,
                bt: 2,
                ct: 2,
                compute: DEEPGEMM_R_16F,
                ..EX
            },
        ),
    ];
    for (name, x) in &unsupported {
        assert_eq!(run(&h, *x), DEEPGEMM_STATUS_NOT_SUPPORTED, "{name}");
    }
    // Host scalars must not be NULL.
    let one = 1.0f32;
    let o = (&one as *const f32).cast::<c_void>();
    assert_eq!(gemm_ex(&h, EX, null(), o), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(gemm_ex(&h, EX, o, null()), DEEPGEMM_STATUS_INVALID_VALUE);
    // NULL handle.
    assert_eq!(
        gemm_ex(&H(null_mut()), EX, o, o),
        DEEPGEMM_STATUS_NOT_INITIALIZED
    );
    assert!(testing::recorded(h.0).is_empty());
    // Every defined algo is accepted.
    for algo in [-1, 0, 7, 23, 99, 100, 115] {
        assert_eq!(
            run(&h, Ex { algo, ..EX }),
            DEEPGEMM_STATUS_SUCCESS,
            "algo {algo}"
        );
    }
    assert_eq!(testing::recorded(h.0).len(), 7);
}

#[test]
fn gemm_ex_empty_and_k_zero() {
    let h = handle();
    // m or n == 0: SUCCESS, nothing launched, pointers may be NULL.
    for x in [
        Ex {
            m: 0,
            a: 0,
            c: 0,
            ..EX
        },
        Ex {
            n: 0,
            b: 0,
            c: 0,
            ..EX
        },
    ] {
        assert_eq!(gemm_ex(&h, x, null(), null()), DEEPGEMM_STATUS_SUCCESS);
    }
    assert!(testing::recorded(h.0).is_empty());
    // k == 0: C = beta * C still has to happen (BLAS semantics); A and B are not read.
    assert_eq!(
        run(
            &h,
            Ex {
                k: 0,
                a: 0,
                b: 0,
                lda: 1,
                ldb: 1,
                ..EX
            }
        ),
        DEEPGEMM_STATUS_SUCCESS
    );
    let c = testing::recorded(h.0);
    assert_eq!(c.len(), 1);
    assert_eq!((c[0].problem.m, c[0].problem.n, c[0].problem.k), (4, 3, 0));
}

#[test]
fn device_pointer_mode() {
    let h = handle();
    assert_eq!(
        deepgemmSetPointerMode(h.0, DEEPGEMM_POINTER_MODE_DEVICE),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        gemm_ex(&h, EX, 0x8000usize as _, 0x8004usize as _),
        DEEPGEMM_STATUS_SUCCESS
    );
    let c = testing::recorded(h.0)[0];
    assert_eq!(
        (c.ptrs.alpha, c.ptrs.beta),
        (Scalar::Device(0x8000), Scalar::Device(0x8004))
    );
    assert_eq!(
        gemm_ex(&h, EX, null(), 0x8004usize as _),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
}

#[test]
fn strided_batched() {
    let h = handle();
    let call = |batch: i32, sa: i64, sb: i64, sc: i64| strided(&h, batch, [sa, sb, sc]);
    assert_eq!(call(3, 20, 15, 12), DEEPGEMM_STATUS_SUCCESS);
    let p = testing::recorded(h.0)[0].problem;
    assert_eq!(p.batch, 3);
    assert_eq!(
        (p.a.batch, p.b.batch, p.c.batch, p.d.batch),
        (20, 15, 12, 12)
    );
    // Broadcasting A (stride 0) is allowed.
    assert_eq!(call(3, 0, 15, 12), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(call(-1, 20, 15, 12), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(call(0, 20, 15, 12), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(testing::recorded(h.0).len(), 2);
}

/// deepgemmSetWorkspace (cublasSetWorkspace): GemmEx and GemmStridedBatchedEx then run with
/// that workspace instead of the handle's default; a misaligned address, or NULL with a
/// size, is refused and leaves the workspace as it was; NULL with 0 is none; SetStream resets
/// it to the default, as cublasSetStream does.
#[test]
fn workspace_reaches_gemm_ex_and_set_stream_resets_it() {
    let h = handle();
    let ws = 0x100_0000usize;
    let recorded_ws = |h: &H| {
        let c = *testing::recorded(h.0)
            .last()
            .expect("a call reached the runtime");
        (c.workspace, c.workspace_size)
    };
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    let first = testing::recorded_buffers(h.0).allocated;
    assert_eq!(
        first.len(),
        1,
        "a new handle's first GEMM allocates its default"
    );
    assert_eq!(
        recorded_ws(&h),
        (first[0].ptr, 32 << 20),
        "cuBLAS's Hopper default"
    );
    assert_eq!(
        deepgemmSetWorkspace(h.0, ws as *mut c_void, 32 << 20),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(recorded_ws(&h), (ws as u64, 32 << 20));
    // Refused: the workspace stays.
    for (ptr, size) in [(ws + 16, 1024usize), (ws + 128, 0), (0, 1024)] {
        assert_eq!(
            deepgemmSetWorkspace(h.0, ptr as *mut c_void, size),
            DEEPGEMM_STATUS_INVALID_VALUE,
            "{ptr:#x} {size}"
        );
    }
    let batched = strided(&h, 2, [20, 15, 12]);
    assert_eq!(batched, DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(recorded_ws(&h), (ws as u64, 32 << 20));
    // NULL with 0: none.
    assert_eq!(
        deepgemmSetWorkspace(h.0, null_mut(), 0),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(recorded_ws(&h), (0, 0));
    // SetStream drops it.
    assert_eq!(
        deepgemmSetWorkspace(h.0, ws as *mut c_void, 4096),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        deepgemmSetStream(h.0, 0xabc0usize as deepgemmStream_t),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    let bufs = testing::recorded_buffers(h.0).allocated;
    assert_eq!(bufs.len(), 2, "the new stream's default");
    assert_eq!(recorded_ws(&h), (bufs[1].ptr, 32 << 20));
    assert_ne!(bufs[1].ptr, bufs[0].ptr, "one a stream");
    assert_eq!(
        deepgemmSetWorkspace(null_mut(), ws as *mut c_void, 4096),
        DEEPGEMM_STATUS_NOT_INITIALIZED
    );
}

#[test]
fn math_mode_decides_tf32_and_pedantic() {
    let h = handle();
    let mut mode = 7;
    assert_eq!(deepgemmGetMathMode(h.0, &mut mode), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(mode, DEEPGEMM_DEFAULT_MATH, "a new handle's");
    // What a call's problem computes with under each mode: (inputs, compute type) -> Math.
    let f32_in = |compute| Ex {
        at: DEEPGEMM_R_32F,
        bt: DEEPGEMM_R_32F,
        compute,
        ..EX
    };
    let math_under = |mode, x: Ex| {
        assert_eq!(deepgemmSetMathMode(h.0, mode), DEEPGEMM_STATUS_SUCCESS);
        assert_eq!(run(&h, x), DEEPGEMM_STATUS_SUCCESS, "mode {mode}");
        testing::recorded(h.0).last().unwrap().problem.math
    };
    let flag = DEEPGEMM_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION;
    // fp32 at COMPUTE_32F: exact, TF32 only under TF32_TENSOR_OP_MATH (flag or not).
    // (NVIDIA_TF32_OVERRIDE=0 is the unit tests' in api::blas: read once a process.)
    for (m, want) in [
        (DEEPGEMM_DEFAULT_MATH, Math::Ffma),
        (DEEPGEMM_TENSOR_OP_MATH, Math::Ffma),
        (DEEPGEMM_PEDANTIC_MATH, Math::Ffma),
        (DEEPGEMM_TF32_TENSOR_OP_MATH, Math::MmaTf32),
        (DEEPGEMM_TF32_TENSOR_OP_MATH | flag, Math::MmaTf32),
        (DEEPGEMM_DEFAULT_MATH | flag, Math::Ffma),
    ] {
        assert_eq!(
            math_under(m, f32_in(DEEPGEMM_COMPUTE_32F)),
            want,
            "mode {m}"
        );
    }
    // An explicit FAST_TF32 is TF32 but under pedantic math.
    assert_eq!(
        math_under(
            DEEPGEMM_DEFAULT_MATH,
            f32_in(DEEPGEMM_COMPUTE_32F_FAST_TF32)
        ),
        Math::MmaTf32
    );
    assert_eq!(
        math_under(
            DEEPGEMM_PEDANTIC_MATH,
            f32_in(DEEPGEMM_COMPUTE_32F_FAST_TF32)
        ),
        Math::Ffma
    );
    // 16-bit inputs run on tensor cores but under pedantic math (cuBLAS's: exact products,
    // fp32 FMAs, the portable FFMA kernel).
    for (m, want) in [
        (DEEPGEMM_DEFAULT_MATH, Math::Mma),
        (DEEPGEMM_PEDANTIC_MATH, Math::Ffma),
        (DEEPGEMM_TF32_TENSOR_OP_MATH, Math::Mma),
    ] {
        assert_eq!(math_under(m, EX), want, "mode {m}");
    }
    assert_eq!(deepgemmGetMathMode(h.0, &mut mode), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(mode, DEEPGEMM_TF32_TENSOR_OP_MATH);
    // cuBLAS 10's compute type CUDA_R_32F (0) / C_32F (4) is COMPUTE_32F, then as above (the
    // C++ overloads' migration; pedantic math makes it COMPUTE_32F_PEDANTIC).
    for legacy in [DEEPGEMM_R_32F, DEEPGEMM_C_32F] {
        for (m, want) in [
            (DEEPGEMM_DEFAULT_MATH, Math::Ffma),
            (DEEPGEMM_PEDANTIC_MATH, Math::Ffma),
            (DEEPGEMM_TF32_TENSOR_OP_MATH, Math::MmaTf32),
        ] {
            assert_eq!(
                math_under(m, f32_in(legacy)),
                want,
                "legacy {legacy}, mode {m}"
            );
        }
        for (m, want) in [
            (DEEPGEMM_DEFAULT_MATH, Math::Mma),
            (DEEPGEMM_PEDANTIC_MATH, Math::Ffma),
            (DEEPGEMM_TF32_TENSOR_OP_MATH, Math::Mma),
        ] {
            let x = Ex {
                compute: legacy,
                ..EX
            };
            assert_eq!(math_under(m, x), want, "legacy {legacy}, 16-bit, mode {m}");
        }
    }
    // Modes cuBLAS does not define are refused and change nothing.
    for bad in [-1, 4, 15, 17 + 16, 32, 1 << 20] {
        assert_eq!(
            deepgemmSetMathMode(h.0, bad),
            DEEPGEMM_STATUS_INVALID_VALUE,
            "mode {bad}"
        );
    }
    assert_eq!(deepgemmGetMathMode(h.0, &mut mode), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(mode, DEEPGEMM_TF32_TENSOR_OP_MATH);
    assert_eq!(
        deepgemmGetMathMode(h.0, null_mut()),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        deepgemmSetMathMode(null_mut(), 0),
        DEEPGEMM_STATUS_NOT_INITIALIZED
    );
    assert_eq!(
        deepgemmGetMathMode(null_mut(), &mut mode),
        DEEPGEMM_STATUS_NOT_INITIALIZED
    );
}

/// deepgemmSgemm / SgemmStridedBatched are GemmEx / GemmStridedBatchedEx with fp32 everywhere,
/// COMPUTE_32F and the default algo: the same call reaches `gemm::run` (exact fp32, TF32
/// under TF32_TENSOR_OP_MATH), and bad arguments get the same statuses.
#[test]
fn sgemm_is_gemm_ex_in_fp32() {
    let h = handle();
    let (alpha, beta) = (1.5f32, 0.25f32);
    let (pa, pb) = (&alpha as *const f32, &beta as *const f32);
    let f32_ex = Ex {
        at: DEEPGEMM_R_32F,
        bt: DEEPGEMM_R_32F,
        ..EX
    };
    let sgemm = |x: Ex| {
        deepgemmSgemm(
            h.0,
            x.transa,
            x.transb,
            x.m,
            x.n,
            x.k,
            pa,
            x.a as *const f32,
            x.lda,
            x.b as *const f32,
            x.ldb,
            pb,
            x.c as *mut f32,
            x.ldc,
        )
    };
    for mode in [DEEPGEMM_DEFAULT_MATH, DEEPGEMM_TF32_TENSOR_OP_MATH] {
        assert_eq!(deepgemmSetMathMode(h.0, mode), DEEPGEMM_STATUS_SUCCESS);
        for x in [
            f32_ex,
            Ex {
                transa: DEEPGEMM_OP_N,
                transb: DEEPGEMM_OP_T,
                m: 5,
                n: 7,
                k: 3,
                lda: 9,
                ldb: 8,
                ldc: 6,
                ..f32_ex
            },
        ] {
            assert_eq!(sgemm(x), DEEPGEMM_STATUS_SUCCESS);
            assert_eq!(run(&h, x), DEEPGEMM_STATUS_SUCCESS);
            let calls = testing::recorded(h.0);
            let (s, e) = (calls[calls.len() - 2], calls[calls.len() - 1]);
            assert_eq!(s.problem, e.problem, "mode {mode}");
            assert_eq!(s.ptrs, e.ptrs);
            assert_eq!(s.problem.cd_type, ScalarType::F32);
            let want = if mode == DEEPGEMM_TF32_TENSOR_OP_MATH {
                Math::MmaTf32
            } else {
                Math::Ffma
            };
            assert_eq!(s.problem.math, want);
        }
    }
    // The same refusals as GemmEx.
    let before = testing::recorded(h.0).len();
    for bad in [
        Ex { m: -1, ..f32_ex },
        Ex { k: -2, ..f32_ex },
        Ex { lda: 4, ..f32_ex },
        Ex { ldc: 3, ..f32_ex },
        Ex {
            transa: 7,
            ..f32_ex
        },
    ] {
        assert_eq!(sgemm(bad), DEEPGEMM_STATUS_INVALID_VALUE);
        assert_eq!(run(&h, bad), DEEPGEMM_STATUS_INVALID_VALUE);
    }
    assert_eq!(sgemm(Ex { m: 0, ..f32_ex }), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(testing::recorded(h.0).len(), before, "nothing enqueued");
    assert_eq!(
        deepgemmSgemm(
            null_mut(),
            0,
            0,
            1,
            1,
            1,
            pa,
            A as *const f32,
            1,
            B as *const f32,
            1,
            pb,
            C as *mut f32,
            1
        ),
        DEEPGEMM_STATUS_NOT_INITIALIZED
    );

    // Strided batches: as GemmStridedBatchedEx on fp32.
    let sb = |batch: i32, [sa, sbb, sc]: [i64; 3]| {
        deepgemmSgemmStridedBatched(
            h.0,
            f32_ex.transa,
            f32_ex.transb,
            f32_ex.m,
            f32_ex.n,
            f32_ex.k,
            pa,
            A as *const f32,
            f32_ex.lda,
            sa,
            B as *const f32,
            f32_ex.ldb,
            sbb,
            pb,
            C as *mut f32,
            f32_ex.ldc,
            sc,
            batch,
        )
    };
    assert_eq!(sb(3, [20, 15, 12]), DEEPGEMM_STATUS_SUCCESS);
    let last = *testing::recorded(h.0).last().unwrap();
    assert_eq!(last.problem.batch, 3);
    assert_eq!(last.problem.ab_type, ScalarType::F32);
    let before = testing::recorded(h.0).len();
    assert_eq!(sb(0, [20, 15, 12]), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(sb(-1, [20, 15, 12]), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(testing::recorded(h.0).len(), before);
}

/// deepgemmGetProperty / deepgemmLtGetProperty: the version's parts, as deepgemmGetVersion.
#[test]
fn get_property_reads_the_version() {
    let mut version = 0;
    assert_eq!(
        deepgemmGetVersion(null_mut(), &mut version),
        DEEPGEMM_STATUS_SUCCESS
    );
    for get in [deepgemmGetProperty, deepgemmLtGetProperty] {
        let mut parts = [-1; 3];
        for (t, p) in [
            DEEPGEMM_MAJOR_VERSION,
            DEEPGEMM_MINOR_VERSION,
            DEEPGEMM_PATCH_LEVEL,
        ]
        .into_iter()
        .zip(parts.iter_mut())
        {
            assert_eq!(get(t, p), DEEPGEMM_STATUS_SUCCESS);
        }
        assert_eq!(parts[0] * 10_000 + parts[1] * 100 + parts[2], version);
        let mut v = 7;
        assert_eq!(get(3, &mut v), DEEPGEMM_STATUS_INVALID_VALUE);
        assert_eq!(get(-1, &mut v), DEEPGEMM_STATUS_INVALID_VALUE);
        assert_eq!(v, 7, "not written on failure");
        assert_eq!(
            get(DEEPGEMM_MAJOR_VERSION, null_mut()),
            DEEPGEMM_STATUS_INVALID_VALUE
        );
    }
}

/// cublasSetSmCountTarget / GetSmCountTarget: the handle's target reaches every later call.
#[test]
fn sm_count_target_reaches_gemm_ex() {
    let h = handle();
    let target = |h: &H| {
        let mut t = -7;
        assert_eq!(
            deepgemmGetSmCountTarget(h.0, &mut t),
            DEEPGEMM_STATUS_SUCCESS
        );
        t
    };
    let recorded = |h: &H| testing::recorded(h.0).last().expect("a call").sm_target;
    assert_eq!(target(&h), 0, "a new handle uses every SM");
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(recorded(&h), 0);
    assert_eq!(deepgemmSetSmCountTarget(h.0, 40), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(target(&h), 40);
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(recorded(&h), 40);
    assert_eq!(strided(&h, 2, [20, 15, 12]), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(recorded(&h), 40);
    // Refused: below 0 (the target stays); NULL handle or out-pointer.
    assert_eq!(
        deepgemmSetSmCountTarget(h.0, -1),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(target(&h), 40);
    assert_eq!(
        deepgemmSetSmCountTarget(null_mut(), 40),
        DEEPGEMM_STATUS_NOT_INITIALIZED
    );
    assert_eq!(
        deepgemmGetSmCountTarget(h.0, null_mut()),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(deepgemmSetSmCountTarget(h.0, 0), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(recorded(&h), 0);
}

/// The workspace a GemmEx call ran with (the last recorded call's).
fn last_ws(h: &H) -> (u64, u64) {
    let c = *testing::recorded(h.0)
        .last()
        .expect("a call reached the runtime");
    (c.workspace, c.workspace_size)
}

fn set_stream(h: &H, s: usize) {
    assert_eq!(
        deepgemmSetStream(h.0, s as deepgemmStream_t),
        DEEPGEMM_STATUS_SUCCESS
    );
}

/// A handle's default workspaces (cuBLAS's default pool): one buffer a stream, allocated at
/// the stream's first GEMM and reused after (NULL and the legacy handle are one stream), at
/// most eight streams (the ninth runs with none), each 256-byte aligned, freed (all of them,
/// once) by deepgemmDestroy.
#[test]
fn default_workspace_one_a_stream_freed_at_destroy() {
    let h = handle();
    let mib32 = 32u64 << 20;
    assert!(
        testing::recorded_buffers(h.0).allocated.is_empty(),
        "none at create"
    );
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    let null_ws = last_ws(&h);
    assert_eq!(null_ws.1, mib32);
    assert_eq!(null_ws.0 % 256, 0);
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(last_ws(&h), null_ws, "reused on the same stream");
    set_stream(&h, 1); // cudaStreamLegacy: the NULL stream
    assert_eq!(strided(&h, 2, [20, 15, 12]), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(last_ws(&h), null_ws, "the legacy handle is the NULL stream");
    set_stream(&h, 0x5000);
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    let s1 = last_ws(&h);
    assert_ne!(s1.0, null_ws.0);
    set_stream(&h, 0);
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(last_ws(&h), null_ws, "back on NULL: its buffer");
    // Six more streams fill the pool; a ninth gets none, and an old one keeps its buffer.
    for i in 0..6 {
        set_stream(&h, 0x6000 + 0x100 * i);
        assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
        assert_eq!(last_ws(&h).1, mib32, "stream {i}");
    }
    set_stream(&h, 0x9000);
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(last_ws(&h), (0, 0), "past eight streams: none");
    set_stream(&h, 0x5000);
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(last_ws(&h), s1);
    let rec = testing::recorded_buffers(h.0);
    assert_eq!(rec.allocated.len(), 8);
    let mut ptrs: Vec<u64> = rec.allocated.iter().map(|b| b.ptr).collect();
    ptrs.sort_unstable();
    ptrs.dedup();
    assert_eq!(ptrs.len(), 8, "distinct buffers");
    assert!(rec.freed.is_empty());
    let log = testing::buffer_log(h.0);
    drop(h); // deepgemmDestroy
    let rec = log.lock().clone();
    assert_eq!(
        rec.freed, rec.allocated,
        "each freed once, by deepgemmDestroy"
    );
}

/// A failed allocation leaves its stream without a default workspace, and is not tried again
/// at each GEMM; other streams still get theirs.
#[test]
fn default_workspace_allocation_failure_is_remembered() {
    let h = handle();
    testing::fail_allocations(h.0, true);
    for _ in 0..3 {
        assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
        assert_eq!(last_ws(&h), (0, 0));
    }
    assert_eq!(testing::recorded_buffers(h.0).failed, 1, "tried once");
    testing::fail_allocations(h.0, false);
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(last_ws(&h), (0, 0), "still none on that stream");
    set_stream(&h, 0x5000);
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(last_ws(&h).1, 32 << 20);
}

/// No default workspace while the stream captures a graph (its buffer would serve the graph's
/// replays and eager calls at once), nor for a stream of another device (the call is refused
/// and allocates nothing); a workspace the caller set is used while capturing.
#[test]
fn default_workspace_none_while_capturing_or_on_another_device() {
    let h = handle();
    let (cap, other) = (0x7000usize, 0x7100usize);
    // A stream that got its buffer before it began to capture runs without it while capturing.
    let late = 0x7200usize;
    set_stream(&h, late);
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(last_ws(&h).1, 32 << 20);
    testing::place_capture(h.0, late as *mut c_void);
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(last_ws(&h), (0, 0), "none while capturing");
    testing::place_capture(h.0, cap as *mut c_void);
    set_stream(&h, cap);
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(last_ws(&h), (0, 0));
    assert_eq!(
        deepgemmSetWorkspace(h.0, 0x100_0000usize as *mut c_void, 4096),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(last_ws(&h), (0x100_0000, 4096));
    testing::place_stream(h.0, other as *mut c_void, 1);
    set_stream(&h, other);
    let calls = testing::recorded(h.0).len();
    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(testing::recorded(h.0).len(), calls);
    assert_eq!(
        testing::recorded_buffers(h.0).allocated.len(),
        1,
        "the late stream's only"
    );
}

/// Many threads on one handle: one default buffer for the NULL stream however the first calls
/// race; the per-thread default stream (cudaStreamPerThread, handle 0x2) is a stream of each
/// thread, so each thread gets its own.
#[test]
fn default_workspace_from_many_threads() {
    let h = handle();
    testing::track_overlaps(h.0, true);
    let hp = h.0 as usize;
    std::thread::scope(|s| {
        for _ in 0..8 {
            s.spawn(|| {
                let h = H(hp as deepgemmHandle_t);
                for _ in 0..20 {
                    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
                }
                std::mem::forget(h);
            });
        }
    });
    let rec = testing::recorded_buffers(h.0);
    assert_eq!(rec.allocated.len(), 1);
    let calls = testing::recorded(h.0);
    assert_eq!(calls.len(), 160);
    assert!(calls.iter().all(|c| c.workspace == rec.allocated[0].ptr));
    assert_eq!(
        rec.overlaps, 0,
        "one call at a time enqueues on the shared buffer"
    );
    set_stream(&h, 2);
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| {
                let h = H(hp as deepgemmHandle_t);
                for _ in 0..5 {
                    assert_eq!(run(&h, EX), DEEPGEMM_STATUS_SUCCESS);
                }
                std::mem::forget(h);
            });
        }
    });
    assert_eq!(testing::recorded_buffers(h.0).allocated.len(), 4);
}

/// GemmBatchedEx on EX's types and shape, alpha 1 and beta `beta`, with these pointer arrays.
fn batched(h: &H, batch: i32, arrays: [usize; 3], beta: f32) -> deepgemmStatus_t {
    batched_k(h, batch, EX.k, arrays, beta)
}

/// `batched` with the problem's k given.
fn batched_k(h: &H, batch: i32, k: i32, [a, b, c]: [usize; 3], beta: f32) -> deepgemmStatus_t {
    let alpha = 1.0f32;
    deepgemmGemmBatchedEx(
        h.0,
        EX.transa,
        EX.transb,
        EX.m,
        EX.n,
        k,
        (&alpha as *const f32).cast(),
        a as *const *const c_void,
        EX.at,
        EX.lda,
        b as *const *const c_void,
        EX.bt,
        EX.ldb,
        (&beta as *const f32).cast(),
        c as *const *mut c_void,
        EX.ct,
        EX.ldc,
        batch,
        EX.compute,
        EX.algo,
    )
}

/// deepgemmGemmBatchedEx (cublasGemmBatchedEx): A, B and C are arrays of matrix pointers,
/// planned onto the portable kernel's pointer-array form only (no Hopper plan, pack or split
/// reads an array of addresses), batch strides 0, the arrays' addresses checked (NULL, off 8
/// bytes) as GemmEx checks matrices', the counts as GemmStridedBatchedEx's.
#[test]
fn batched_ex_runs_the_pointer_array_kernel() {
    use deepgemm::plan::Kernel;
    let h = handle();
    // (The recording handle decodes algos only: plan as a call without one does.)
    let plan_of = |c: &deepgemm::api::RecordedCall| {
        deepgemm::plan::choose_for_call(&c.problem, &DeviceSpec::H200, &c.ptrs, c.workspace_size)
            .unwrap()
    };
    let arrays = [A, B, C];
    assert_eq!(batched(&h, 3, arrays, 0.0), DEEPGEMM_STATUS_SUCCESS);
    let call = testing::recorded(h.0)[0];
    let p = call.problem;
    assert!(p.pointer_arrays);
    assert_eq!((p.m, p.n, p.k, p.batch), (4, 3, 5, 3));
    assert_eq!((p.a.batch, p.b.batch, p.c.batch, p.d.batch), (0, 0, 0, 0));
    let ptrs = call.ptrs;
    assert_eq!(
        (ptrs.a, ptrs.b, ptrs.c, ptrs.d),
        (A as u64, B as u64, C as u64, C as u64)
    );
    let plan = plan_of(&call);
    match plan.kernel {
        Kernel::Portable(v) => {
            assert!(
                v.pointer_arrays && v.name().ends_with("_pa"),
                "{}",
                v.name()
            );
            assert_eq!(v.math, Math::Mma);
        }
        k => panic!("GemmBatchedEx planned {k:?}"),
    }
    assert!(plan.pack.is_none() && !plan.swap && plan.workspace == 0);
    assert_eq!(plan.grid[2], 3, "one grid layer a batch");
    // Large and aligned as it may be, never a Hopper plan; the same shape strided is one.
    let big = |arrays: bool| {
        let (one, dims) = (1.0f32, 4096);
        let alpha = (&one as *const f32).cast();
        let x = (DEEPGEMM_OP_T, DEEPGEMM_OP_N, DEEPGEMM_R_16BF);
        if arrays {
            deepgemmGemmBatchedEx(
                h.0,
                x.0,
                x.1,
                dims,
                dims,
                dims,
                alpha,
                A as *const *const c_void,
                x.2,
                dims,
                B as *const *const c_void,
                x.2,
                dims,
                alpha,
                C as *const *mut c_void,
                x.2,
                dims,
                2,
                DEEPGEMM_COMPUTE_32F,
                DEEPGEMM_GEMM_DEFAULT,
            )
        } else {
            let s = (dims as i64) * (dims as i64);
            deepgemmGemmStridedBatchedEx(
                h.0,
                x.0,
                x.1,
                dims,
                dims,
                dims,
                alpha,
                A as *const c_void,
                x.2,
                dims,
                s,
                B as *const c_void,
                x.2,
                dims,
                s,
                alpha,
                C as *mut c_void,
                x.2,
                dims,
                s,
                2,
                DEEPGEMM_COMPUTE_32F,
                DEEPGEMM_GEMM_DEFAULT,
            )
        }
    };
    assert_eq!(big(true), DEEPGEMM_STATUS_SUCCESS);
    let last = *testing::recorded(h.0).last().unwrap();
    assert!(matches!(plan_of(&last).kernel, Kernel::Portable(v) if v.pointer_arrays));
    assert_eq!(big(false), DEEPGEMM_STATUS_SUCCESS);
    let last = *testing::recorded(h.0).last().unwrap();
    assert!(!last.problem.pointer_arrays);
    assert!(matches!(plan_of(&last).kernel, Kernel::Sm90(_)));
    let before = testing::recorded(h.0).len();
    // Arrays: NULL or off 8 bytes (an element-aligned matrix address is not enough).
    for (name, bad) in [
        ("A NULL", [0, B, C]),
        ("B NULL", [A, 0, C]),
        ("C NULL", [A, B, 0]),
        ("A off 8", [A + 2, B, C]),
        ("C off 8", [A, B, C + 4]),
    ] {
        assert_eq!(
            batched(&h, 3, bad, 0.0),
            DEEPGEMM_STATUS_INVALID_VALUE,
            "{name}"
        );
    }
    assert_eq!(batched(&h, -1, arrays, 0.0), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(batched(&h, 0, arrays, 0.0), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(testing::recorded(h.0).len(), before, "nothing enqueued");
    // beta != 0 reads C through its array too; a NULL handle.
    assert_eq!(batched(&h, 2, arrays, 0.5), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(
        batched(&H(null_mut()), 2, arrays, 0.5),
        DEEPGEMM_STATUS_NOT_INITIALIZED
    );
    // k = 0 needs no A or B: NULL arrays are fine (as NULL matrices are for GemmEx), and the
    // kernel reads them only for a product (kernels/gemm/portable.cuh; gpu_blas runs it).
    let k0 = |a: usize, b: usize| batched_k(&h, 2, 0, [a, b, C], 0.5);
    assert_eq!(k0(0, 0), DEEPGEMM_STATUS_SUCCESS);
    let last = *testing::recorded(h.0).last().unwrap();
    assert!(last.problem.pointer_arrays && last.problem.k == 0);
    assert!(matches!(plan_of(&last).kernel, Kernel::Portable(v) if v.pointer_arrays));
    assert_eq!(k0(A, B), DEEPGEMM_STATUS_SUCCESS);
}
