//! deepgemmLtMatmul and deepgemmLtMatmulAlgoGetHeuristic through the C exports, on a
//! recording handle (no GPU needed): every validation path, and exactly what reaches
//! `gemm::run` when validation passes.

mod api_common;
use api_common::*;
use std::ffi::c_void;
use std::ptr::{null, null_mut};

use deepgemm::ffi::testing;
use deepgemm::plan::{self, DeviceSpec};
use deepgemm::problem::Scalar;
use deepgemm::types::{Math, Op, ScalarType};

const A: usize = 0x10000;
const B: usize = 0x20000;
const C: usize = 0x30000;
const D: usize = 0x40000;
const STREAM: usize = 0x1234_5600;

fn p(addr: usize) -> *const c_void {
    addr as *const c_void
}

/// Every algo the heuristic lists (up to 64) for A, B and C = D laid out as `[a, b, c]`;
/// panics unless SUCCESS.
fn all_algos(
    h: deepgemmLtHandle_t,
    d: deepgemmLtMatmulDesc_t,
    [a, b, c]: [deepgemmLtMatrixLayout_t; 3],
    pr: deepgemmLtMatmulPreference_t,
) -> Vec<deepgemmLtMatmulHeuristicResult_t> {
    let blank = deepgemmLtMatmulHeuristicResult_t {
        algo: deepgemmLtMatmulAlgo_t::default(),
        workspaceSize: 77,
        state: DEEPGEMM_STATUS_LICENSE_ERROR,
        wavesCount: -1.0,
        reserved: [0; 4],
    };
    let mut res = [blank; 64];
    let mut count = 0;
    let st =
        deepgemmLtMatmulAlgoGetHeuristic(h, d, a, b, c, c, pr, 64, res.as_mut_ptr(), &mut count);
    assert_eq!(st, DEEPGEMM_STATUS_SUCCESS);
    res[..count as usize].to_vec()
}

/// A bf16 problem, D(5x3) = alpha * A(5x7) B(7x3) + beta * C, all column-major.
struct Setup {
    h: deepgemmLtHandle_t,
    desc: Obj,
    a: Obj,
    b: Obj,
    c: Obj,
    d: Obj,
}

impl Setup {
    fn new() -> Setup {
        Setup {
            h: testing::recording_lt_handle(DeviceSpec::H200),
            desc: Obj::Desc(desc(DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F)),
            a: Obj::Layout(layout(DEEPGEMM_R_16BF, 5, 7, 5)),
            b: Obj::Layout(layout(DEEPGEMM_R_16BF, 7, 3, 7)),
            c: Obj::Layout(layout(DEEPGEMM_R_16BF, 5, 3, 5)),
            d: Obj::Layout(layout(DEEPGEMM_R_16BF, 5, 3, 5)),
        }
    }

    fn raw(o: Obj) -> deepgemmLtMatrixLayout_t {
        match o {
            Obj::Layout(l) => l,
            _ => unreachable!(),
        }
    }

    fn desc_raw(&self) -> deepgemmLtMatmulDesc_t {
        match self.desc {
            Obj::Desc(d) => d,
            _ => unreachable!(),
        }
    }

    /// Calls deepgemmLtMatmul with `alpha`/`beta` pointers and the rest from `args`.
    #[allow(clippy::too_many_arguments)]
    fn matmul_full(
        &self,
        alpha: *const c_void,
        beta: *const c_void,
        ptrs: [usize; 4],
        algo: *const deepgemmLtMatmulAlgo_t,
        ws: usize,
        ws_size: usize,
    ) -> deepgemmStatus_t {
        deepgemmLtMatmul(
            self.h,
            self.desc_raw(),
            alpha,
            p(ptrs[0]),
            Self::raw(self.a),
            p(ptrs[1]),
            Self::raw(self.b),
            beta,
            p(ptrs[2]),
            Self::raw(self.c),
            ptrs[3] as *mut c_void,
            Self::raw(self.d),
            algo,
            ws as *mut c_void,
            ws_size,
            STREAM as deepgemmStream_t,
        )
    }

    fn matmul(&self, alpha: f32, beta: f32) -> deepgemmStatus_t {
        self.matmul_full(
            (&alpha as *const f32).cast(),
            (&beta as *const f32).cast(),
            [A, B, C, D],
            null(),
            0,
            0,
        )
    }

    fn heuristic(
        &self,
        pref: deepgemmLtMatmulPreference_t,
        n: usize,
    ) -> (
        deepgemmStatus_t,
        Vec<deepgemmLtMatmulHeuristicResult_t>,
        i32,
    ) {
        let blank = deepgemmLtMatmulHeuristicResult_t {
            algo: deepgemmLtMatmulAlgo_t { data: [7; 8] },
            workspaceSize: 77,
            state: DEEPGEMM_STATUS_LICENSE_ERROR,
            wavesCount: -1.0,
            reserved: [9; 4],
        };
        let mut res = vec![blank; n.max(1)];
        let mut count = -5;
        let st = deepgemmLtMatmulAlgoGetHeuristic(
            self.h,
            self.desc_raw(),
            Self::raw(self.a),
            Self::raw(self.b),
            Self::raw(self.c),
            Self::raw(self.d),
            pref,
            n as i32,
            res.as_mut_ptr(),
            &mut count,
        );
        (st, res, count)
    }

    fn recorded(&self) -> Vec<deepgemm::api::RecordedCall> {
        testing::lt_recorded(self.h)
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        for o in [self.desc, self.a, self.b, self.c, self.d] {
            o.destroy();
        }
        assert_eq!(deepgemmLtDestroy(self.h), DEEPGEMM_STATUS_SUCCESS);
    }
}

#[test]
fn valid_call_reaches_the_runtime_with_the_callers_values() {
    let s = Setup::new();
    assert_eq!(s.matmul(2.0, 0.5), DEEPGEMM_STATUS_SUCCESS);
    let calls = s.recorded();
    assert_eq!(calls.len(), 1);
    let c = calls[0];
    assert_eq!(
        (c.problem.m, c.problem.n, c.problem.k, c.problem.batch),
        (5, 3, 7, 1)
    );
    assert_eq!(c.problem.ab_type, ScalarType::BF16);
    assert_eq!(c.problem.cd_type, ScalarType::BF16);
    assert_eq!(c.problem.math, Math::Mma);
    assert_eq!((c.problem.op_a, c.problem.op_b), (Op::N, Op::N));
    assert_eq!(c.ptrs.alpha, Scalar::Host(2.0));
    assert_eq!(c.ptrs.beta, Scalar::Host(0.5));
    assert_eq!(
        (c.ptrs.a, c.ptrs.b, c.ptrs.c, c.ptrs.d, c.ptrs.bias),
        (A as u64, B as u64, C as u64, D as u64, 0)
    );
    assert_eq!(c.plan, None, "a NULL algo lets the library choose");
    assert_eq!(c.stream, STREAM);
    assert_eq!((c.workspace, c.workspace_size), (0, 0));
}

#[test]
fn null_handle_is_not_initialized_and_null_objects_invalid() {
    let s = Setup::new();
    let (alpha, beta) = (1.0f32, 0.0f32);
    let (ap, bp) = ((&alpha as *const f32).cast(), (&beta as *const f32).cast());
    let l = |o| Setup::raw(o);
    let call = |h, d, a, b, c, dd| {
        deepgemmLtMatmul(
            h,
            d,
            ap,
            p(A),
            a,
            p(B),
            b,
            bp,
            p(C),
            c,
            D as *mut c_void,
            dd,
            null(),
            null_mut(),
            0,
            null_mut(),
        )
    };
    assert_eq!(
        call(null_mut(), s.desc_raw(), l(s.a), l(s.b), l(s.c), l(s.d)),
        DEEPGEMM_STATUS_NOT_INITIALIZED
    );
    assert_eq!(
        call(s.h, null_mut(), l(s.a), l(s.b), l(s.c), l(s.d)),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        call(s.h, s.desc_raw(), null_mut(), l(s.b), l(s.c), l(s.d)),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        call(s.h, s.desc_raw(), l(s.a), null_mut(), l(s.c), l(s.d)),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        call(s.h, s.desc_raw(), l(s.a), l(s.b), l(s.c), null_mut()),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert!(s.recorded().is_empty());
    // Sanity: the same call with every object is accepted.
    assert_eq!(
        call(s.h, s.desc_raw(), l(s.a), l(s.b), l(s.c), l(s.d)),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(s.recorded().len(), 1);
    // A NULL Cdesc is Ddesc (cuBLASLt: "if Cdesc is omitted ... assumes it to be equal").
    assert_eq!(
        call(s.h, s.desc_raw(), l(s.a), l(s.b), null_mut(), l(s.d)),
        DEEPGEMM_STATUS_SUCCESS
    );
    let rec = s.recorded();
    assert_eq!(rec.len(), 2);
    assert_eq!(rec[1].problem, rec[0].problem);
}

#[test]
fn pointers_are_checked() {
    let s = Setup::new();
    let (one, zero) = (1.0f32, 0.0f32);
    let (o, z) = (
        (&one as *const f32).cast::<c_void>(),
        (&zero as *const f32).cast::<c_void>(),
    );
    // Host scalars must not be NULL.
    assert_eq!(
        s.matmul_full(null(), o, [A, B, C, D], null(), 0, 0),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        s.matmul_full(o, null(), [A, B, C, D], null(), 0, 0),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    // A, B, D must not be NULL; C only when beta != 0.
    for ptrs in [[0, B, C, D], [A, 0, C, D], [A, B, C, 0], [A, B, 0, D]] {
        assert_eq!(
            s.matmul_full(o, o, ptrs, null(), 0, 0),
            DEEPGEMM_STATUS_INVALID_VALUE,
            "{ptrs:x?}"
        );
    }
    // Misaligned for bf16.
    assert_eq!(
        s.matmul_full(o, z, [A + 1, B, C, D], null(), 0, 0),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert!(s.recorded().is_empty());
    assert_eq!(
        s.matmul_full(o, z, [A, B, 0, D], null(), 0, 0),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(s.recorded()[0].ptrs.c, 0);
    // In place: C == D with identical layouts.
    assert_eq!(
        s.matmul_full(o, o, [A, B, D, D], null(), 0, 0),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(s.recorded().len(), 2);
}

#[test]
fn device_pointer_mode_passes_addresses() {
    let s = Setup::new();
    assert_eq!(
        s.desc.set(
            DEEPGEMMLT_MATMUL_DESC_POINTER_MODE,
            DEEPGEMMLT_POINTER_MODE_DEVICE
        ),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        s.matmul_full(p(0x5000), p(0x5004), [A, B, C, D], null(), 0, 0),
        DEEPGEMM_STATUS_SUCCESS
    );
    let c = s.recorded()[0];
    assert_eq!(
        (c.ptrs.alpha, c.ptrs.beta),
        (Scalar::Device(0x5000), Scalar::Device(0x5004))
    );
    // A NULL device scalar is invalid.
    assert_eq!(
        s.matmul_full(null(), p(0x5004), [A, B, C, D], null(), 0, 0),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    // Vector pointer modes are valid values deepgemm does not implement.
    assert_eq!(
        s.desc.set(
            DEEPGEMMLT_MATMUL_DESC_POINTER_MODE,
            DEEPGEMMLT_POINTER_MODE_DEVICE_VECTOR
        ),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        s.matmul_full(p(0x5000), p(0x5004), [A, B, C, D], null(), 0, 0),
        DEEPGEMM_STATUS_NOT_SUPPORTED
    );
    assert_eq!(s.recorded().len(), 1);
}

#[test]
fn shapes_and_leading_dimensions_are_checked() {
    let s = Setup::new();
    // ld < rows (column-major).
    assert_eq!(
        s.a.set(DEEPGEMMLT_MATRIX_LAYOUT_LD, 4i64),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(s.matmul(1.0, 0.0), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(
        s.a.set(DEEPGEMMLT_MATRIX_LAYOUT_LD, 5i64),
        DEEPGEMM_STATUS_SUCCESS
    );
    // Inner dimensions differ.
    assert_eq!(
        s.b.set(DEEPGEMMLT_MATRIX_LAYOUT_ROWS, 6u64),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(s.matmul(1.0, 0.0), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(
        s.b.set(DEEPGEMMLT_MATRIX_LAYOUT_ROWS, 7u64),
        DEEPGEMM_STATUS_SUCCESS
    );
    // D is not m x n.
    assert_eq!(
        s.d.set(DEEPGEMMLT_MATRIX_LAYOUT_COLS, 4u64),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(s.matmul(1.0, 0.0), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(
        s.d.set(DEEPGEMMLT_MATRIX_LAYOUT_COLS, 3u64),
        DEEPGEMM_STATUS_SUCCESS
    );
    // Batch counts differ.
    assert_eq!(
        s.a.set(DEEPGEMMLT_MATRIX_LAYOUT_BATCH_COUNT, 2i32),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(s.matmul(1.0, 0.0), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(
        s.a.set(DEEPGEMMLT_MATRIX_LAYOUT_BATCH_COUNT, 1i32),
        DEEPGEMM_STATUS_SUCCESS
    );
    // Overflowing extents: a huge ld times cols does not fit int64.
    assert_eq!(
        s.a.set(DEEPGEMMLT_MATRIX_LAYOUT_LD, i64::MAX / 2),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(s.matmul(1.0, 0.0), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(
        s.a.set(DEEPGEMMLT_MATRIX_LAYOUT_LD, 5i64),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert!(s.recorded().is_empty());
    // Row-major A (ld >= cols) with op T on B.
    assert_eq!(
        s.a.set(DEEPGEMMLT_MATRIX_LAYOUT_ORDER, DEEPGEMMLT_ORDER_ROW),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        s.a.set(DEEPGEMMLT_MATRIX_LAYOUT_LD, 7i64),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        s.desc.set(DEEPGEMMLT_MATMUL_DESC_TRANSB, DEEPGEMM_OP_T),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        s.b.set(DEEPGEMMLT_MATRIX_LAYOUT_ROWS, 3u64),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        s.b.set(DEEPGEMMLT_MATRIX_LAYOUT_COLS, 7u64),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        s.b.set(DEEPGEMMLT_MATRIX_LAYOUT_LD, 3i64),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(s.matmul(1.0, 0.0), DEEPGEMM_STATUS_SUCCESS);
    let c = s.recorded()[0];
    assert_eq!((c.problem.m, c.problem.n, c.problem.k), (5, 3, 7));
    assert_eq!(
        (c.problem.a.row, c.problem.a.col),
        (7, 1),
        "row-major A: row stride ld"
    );
    assert_eq!(c.problem.op_b, Op::T);
    assert_eq!(
        (c.problem.b.row, c.problem.b.col),
        (3, 1),
        "B^T(kk, j) = B[j + kk*ld]"
    );
}

/// The aux output's attributes left set on a reused descriptor (a GELU_AUX call, then a plain
/// one) are ignored as cuBLASLt ignores them; an aux epilogue is still NOT_SUPPORTED.
#[test]
fn stale_aux_attributes_are_ignored_without_an_aux_epilogue() {
    let s = Setup::new();
    let set = |s: &Setup| {
        assert_eq!(
            s.desc
                .set(DEEPGEMMLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, 0x100usize),
            DEEPGEMM_STATUS_SUCCESS
        );
        assert_eq!(
            s.desc
                .set(DEEPGEMMLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_MODE, 3i32),
            DEEPGEMM_STATUS_SUCCESS
        );
    };
    set(&s);
    assert_eq!(s.matmul(1.0, 0.0), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(s.recorded().len(), 1);
    assert_eq!(
        s.desc.set(
            DEEPGEMMLT_MATMUL_DESC_EPILOGUE,
            DEEPGEMMLT_EPILOGUE_GELU_AUX as u32
        ),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(s.matmul(1.0, 0.0), DEEPGEMM_STATUS_NOT_SUPPORTED);
    assert_eq!(s.recorded().len(), 1);
}

#[test]
fn unsupported_requests_are_not_supported() {
    type Step = (
        fn(&Setup) -> deepgemmStatus_t,
        fn(&Setup) -> deepgemmStatus_t,
    );
    let steps: Vec<(&str, Step)> = vec![
        (
            "fp8 A/B",
            (
                |s| {
                    s.a.set(DEEPGEMMLT_MATRIX_LAYOUT_TYPE, DEEPGEMM_R_8F_E4M3 as u32);
                    s.b.set(DEEPGEMMLT_MATRIX_LAYOUT_TYPE, DEEPGEMM_R_8F_E4M3 as u32)
                },
                |s| {
                    s.a.set(DEEPGEMMLT_MATRIX_LAYOUT_TYPE, 14u32);
                    s.b.set(DEEPGEMMLT_MATRIX_LAYOUT_TYPE, 14u32)
                },
            ),
        ),
        (
            "A scale pointer",
            (
                |s| {
                    s.desc
                        .set(DEEPGEMMLT_MATMUL_DESC_A_SCALE_POINTER, 0x100usize)
                },
                |s| s.desc.set(DEEPGEMMLT_MATMUL_DESC_A_SCALE_POINTER, 0usize),
            ),
        ),
        (
            "D scale pointer",
            (
                |s| {
                    s.desc
                        .set(DEEPGEMMLT_MATMUL_DESC_D_SCALE_POINTER, 0x100usize)
                },
                |s| s.desc.set(DEEPGEMMLT_MATMUL_DESC_D_SCALE_POINTER, 0usize),
            ),
        ),
        (
            "amax",
            (
                |s| {
                    s.desc
                        .set(DEEPGEMMLT_MATMUL_DESC_AMAX_D_POINTER, 0x100usize)
                },
                |s| s.desc.set(DEEPGEMMLT_MATMUL_DESC_AMAX_D_POINTER, 0usize),
            ),
        ),
        (
            "scale mode",
            (
                |s| s.desc.set(DEEPGEMMLT_MATMUL_DESC_B_SCALE_MODE, 2i32),
                |s| s.desc.set(DEEPGEMMLT_MATMUL_DESC_B_SCALE_MODE, 0i32),
            ),
        ),
        (
            "D out scale mode",
            (
                |s| s.desc.set(DEEPGEMMLT_MATMUL_DESC_D_OUT_SCALE_MODE, 3i32),
                |s| s.desc.set(DEEPGEMMLT_MATMUL_DESC_D_OUT_SCALE_MODE, 0i32),
            ),
        ),
        (
            "fill mode",
            (
                |s| {
                    s.desc
                        .set(DEEPGEMMLT_MATMUL_DESC_FILL_MODE, DEEPGEMM_FILL_MODE_LOWER)
                },
                |s| {
                    s.desc
                        .set(DEEPGEMMLT_MATMUL_DESC_FILL_MODE, DEEPGEMM_FILL_MODE_FULL)
                },
            ),
        ),
        (
            "transc",
            (
                |s| s.desc.set(DEEPGEMMLT_MATMUL_DESC_TRANSC, DEEPGEMM_OP_T),
                |s| s.desc.set(DEEPGEMMLT_MATMUL_DESC_TRANSC, DEEPGEMM_OP_N),
            ),
        ),
        (
            "aux epilogue",
            (
                |s| {
                    s.desc.set(
                        DEEPGEMMLT_MATMUL_DESC_EPILOGUE,
                        DEEPGEMMLT_EPILOGUE_GELU_AUX_BIAS as u32,
                    )
                },
                |s| s.desc.set(DEEPGEMMLT_MATMUL_DESC_EPILOGUE, 1u32),
            ),
        ),
        (
            "compute 16F",
            (
                |s| {
                    s.desc
                        .set(DEEPGEMMLT_MATMUL_DESC_COMPUTE_TYPE, DEEPGEMM_COMPUTE_16F)
                },
                |s| {
                    s.desc
                        .set(DEEPGEMMLT_MATMUL_DESC_COMPUTE_TYPE, DEEPGEMM_COMPUTE_32F)
                },
            ),
        ),
        (
            "emulated compute",
            (
                |s| {
                    s.desc.set(
                        DEEPGEMMLT_MATMUL_DESC_COMPUTE_TYPE,
                        DEEPGEMM_COMPUTE_32F_EMULATED_16BFX9,
                    )
                },
                |s| {
                    s.desc
                        .set(DEEPGEMMLT_MATMUL_DESC_COMPUTE_TYPE, DEEPGEMM_COMPUTE_32F)
                },
            ),
        ),
        (
            "COL32 order",
            (
                |s| {
                    s.a.set(DEEPGEMMLT_MATRIX_LAYOUT_ORDER, DEEPGEMMLT_ORDER_COL32)
                },
                |s| {
                    s.a.set(DEEPGEMMLT_MATRIX_LAYOUT_ORDER, DEEPGEMMLT_ORDER_COL)
                },
            ),
        ),
        (
            "planar complex",
            (
                |s| s.c.set(DEEPGEMMLT_MATRIX_LAYOUT_PLANE_OFFSET, 64i64),
                |s| s.c.set(DEEPGEMMLT_MATRIX_LAYOUT_PLANE_OFFSET, 0i64),
            ),
        ),
        (
            "pointer array",
            (
                |s| {
                    s.d.set(
                        DEEPGEMMLT_MATRIX_LAYOUT_BATCH_MODE,
                        DEEPGEMMLT_BATCH_MODE_POINTER_ARRAY,
                    )
                },
                |s| s.d.set(DEEPGEMMLT_MATRIX_LAYOUT_BATCH_MODE, 0i32),
            ),
        ),
    ];
    let s = Setup::new();
    let pr = pref();
    for (name, (set, reset)) in steps {
        assert_eq!(set(&s), DEEPGEMM_STATUS_SUCCESS, "{name}: set");
        assert_eq!(
            s.matmul(1.0, 0.0),
            DEEPGEMM_STATUS_NOT_SUPPORTED,
            "{name}: matmul"
        );
        let (st, res, count) = s.heuristic(pr, 2);
        assert_eq!(
            (st, count),
            (DEEPGEMM_STATUS_NOT_SUPPORTED, 0),
            "{name}: heuristic"
        );
        assert_eq!(
            res[0].workspaceSize, 77,
            "{name}: results written on failure"
        );
        assert_eq!(reset(&s), DEEPGEMM_STATUS_SUCCESS, "{name}: reset");
        assert_eq!(
            s.matmul(1.0, 0.0),
            DEEPGEMM_STATUS_SUCCESS,
            "{name}: after reset"
        );
    }
    Obj::Pref(pr).destroy();
}

#[test]
fn bias_epilogue_needs_and_passes_the_bias_pointer() {
    let s = Setup::new();
    assert_eq!(
        s.desc.set(
            DEEPGEMMLT_MATMUL_DESC_EPILOGUE,
            DEEPGEMMLT_EPILOGUE_GELU_BIAS as u32
        ),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        s.matmul(1.0, 0.0),
        DEEPGEMM_STATUS_INVALID_VALUE,
        "BIAS epilogue without a bias pointer"
    );
    assert_eq!(
        s.desc.set(DEEPGEMMLT_MATMUL_DESC_BIAS_POINTER, 0x7000usize),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(s.matmul(1.0, 0.0), DEEPGEMM_STATUS_SUCCESS);
    let c = s.recorded()[0];
    assert_eq!(c.ptrs.bias, 0x7000);
    assert!(c.problem.epilogue.bias);
    // Without a bias epilogue the pointer is not passed on.
    assert_eq!(
        s.desc.set(
            DEEPGEMMLT_MATMUL_DESC_EPILOGUE,
            DEEPGEMMLT_EPILOGUE_RELU as u32
        ),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(s.matmul(1.0, 0.0), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(s.recorded()[1].ptrs.bias, 0);
}

#[test]
fn workspace_is_checked() {
    let s = Setup::new();
    let one = 1.0f32;
    let o = (&one as *const f32).cast::<c_void>();
    assert_eq!(
        s.matmul_full(o, o, [A, B, C, D], null(), 0, 1024),
        DEEPGEMM_STATUS_INVALID_VALUE,
        "size > 0 with NULL"
    );
    assert_eq!(
        s.matmul_full(o, o, [A, B, C, D], null(), 0x100010, 1024),
        DEEPGEMM_STATUS_INVALID_VALUE,
        "misaligned"
    );
    assert!(s.recorded().is_empty());
    assert_eq!(
        s.matmul_full(o, o, [A, B, C, D], null(), 0x100100, 1024),
        DEEPGEMM_STATUS_SUCCESS
    );
    // A workspace with size 0 is fine (nothing is used).
    assert_eq!(
        s.matmul_full(o, o, [A, B, C, D], null(), 0x100000, 0),
        DEEPGEMM_STATUS_SUCCESS
    );
    let c = s.recorded();
    assert_eq!((c[0].workspace, c[0].workspace_size), (0x100100, 1024));
    assert_eq!((c[1].workspace, c[1].workspace_size), (0x100000, 0));
}

#[test]
fn heuristic_results_round_trip_into_matmul() {
    let s = Setup::new();
    let pr = pref();
    let (st, res, count) = s.heuristic(pr, 4);
    assert_eq!((st, count), (DEEPGEMM_STATUS_SUCCESS, 1));
    let expect = {
        // What the planner itself chooses for this problem on an H200.
        let snap_problem = {
            use deepgemm::problem::{GemmProblem, MatrixSpec, OpSpec};
            GemmProblem::new(
                &OpSpec::new(68, 0),
                &MatrixSpec::col(14, 5, 7, 5),
                &MatrixSpec::col(14, 7, 3, 7),
                &MatrixSpec::col(14, 5, 3, 5),
                &MatrixSpec::col(14, 5, 3, 5),
            )
            .unwrap()
        };
        plan::choose(&snap_problem, &DeviceSpec::H200).unwrap()
    };
    let r = res[0];
    assert_eq!(r.algo.data, expect.to_algo());
    assert_eq!(r.state, DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(r.workspaceSize as u64, expect.workspace);
    let ctas: u32 = expect.grid.iter().product();
    assert!(
        (r.wavesCount - ctas as f32 / 132.0).abs() < 1e-6,
        "waves {}",
        r.wavesCount
    );
    assert_eq!(r.reserved, [0; 4]);
    // Unused slots are left alone.
    assert_eq!(res[1].workspaceSize, 77);

    // The algo goes back into Matmul and reaches the runtime as that plan.
    let one = 1.0f32;
    let o = (&one as *const f32).cast::<c_void>();
    assert_eq!(
        s.matmul_full(o, o, [A, B, C, D], &r.algo, 0, 0),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(s.recorded()[0].plan, Some(expect));

    // Words deepgemm did not make are rejected.
    let mut bad = r.algo;
    bad.data[0] ^= 1;
    assert_eq!(
        s.matmul_full(o, o, [A, B, C, D], &bad, 0, 0),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    let zeroed = deepgemmLtMatmulAlgo_t::default();
    assert_eq!(
        s.matmul_full(o, o, [A, B, C, D], &zeroed, 0, 0),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(s.recorded().len(), 1);
    // One listed for another problem (here: another grid) runs its configuration, as
    // cuBLASLt runs a heuristic algo on other shapes of its types.
    let mut other = r.algo;
    other.data[4] += 1;
    assert_eq!(
        s.matmul_full(o, o, [A, B, C, D], &other, 0, 0),
        DEEPGEMM_STATUS_SUCCESS
    );
    let ran = s.recorded()[1].plan.expect("a plan");
    assert_eq!(
        deepgemm::plan::algo::Config::of(&ran),
        deepgemm::plan::algo::Config::of(&expect)
    );
    Obj::Pref(pr).destroy();
}

#[test]
fn heuristic_argument_checks_write_nothing() {
    let s = Setup::new();
    let pr = pref();
    let mut res = [deepgemmLtMatmulHeuristicResult_t {
        algo: deepgemmLtMatmulAlgo_t { data: [7; 8] },
        workspaceSize: 77,
        state: DEEPGEMM_STATUS_LICENSE_ERROR,
        wavesCount: -1.0,
        reserved: [9; 4],
    }; 2];
    let mut count = -5;
    let l = |o| Setup::raw(o);
    let call = |h, n, res: *mut deepgemmLtMatmulHeuristicResult_t, count: *mut i32, pref| {
        deepgemmLtMatmulAlgoGetHeuristic(
            h,
            s.desc_raw(),
            l(s.a),
            l(s.b),
            l(s.c),
            l(s.d),
            pref,
            n,
            res,
            count,
        )
    };
    assert_eq!(
        call(null_mut(), 1, res.as_mut_ptr(), &mut count, pr),
        DEEPGEMM_STATUS_NOT_INITIALIZED
    );
    assert_eq!(
        call(s.h, 0, res.as_mut_ptr(), &mut count, pr),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        call(s.h, -1, res.as_mut_ptr(), &mut count, pr),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        call(s.h, 1, null_mut(), &mut count, pr),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        call(s.h, 1, res.as_mut_ptr(), null_mut(), pr),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        call(s.h, 1, res.as_mut_ptr(), &mut count, null_mut()),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(count, -5);
    assert_eq!(res[0].workspaceSize, 77);
    // An invalid problem is INVALID_VALUE (not "no algorithm"), count untouched.
    assert_eq!(
        s.a.set(DEEPGEMMLT_MATRIX_LAYOUT_LD, 1i64),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        call(s.h, 1, res.as_mut_ptr(), &mut count, pr),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(count, -5);
    assert_eq!(
        s.a.set(DEEPGEMMLT_MATRIX_LAYOUT_LD, 5i64),
        DEEPGEMM_STATUS_SUCCESS
    );
    // Preferences that exclude every algorithm: NOT_SUPPORTED with a count of 0.
    let p = Obj::Pref(pr);
    assert_eq!(
        p.set(DEEPGEMMLT_MATMUL_PREF_MAX_WAVES_COUNT, 0.001f32),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        call(s.h, 1, res.as_mut_ptr(), &mut count, pr),
        DEEPGEMM_STATUS_NOT_SUPPORTED
    );
    assert_eq!(count, 0);
    assert_eq!(
        p.set(DEEPGEMMLT_MATMUL_PREF_MAX_WAVES_COUNT, 1.0f32),
        DEEPGEMM_STATUS_SUCCESS
    );
    count = -5;
    assert_eq!(
        p.set(
            DEEPGEMMLT_MATMUL_PREF_SEARCH_MODE,
            DEEPGEMMLT_SEARCH_LIMITED_BY_ALGO_ID as u32
        ),
        DEEPGEMM_STATUS_SUCCESS
    );
    // LIMITED_BY_ALGO_ID reads the algo id from the first result's algo, which is not one of
    // deepgemm's here: INVALID_VALUE, nothing written.
    assert_eq!(
        call(s.h, 1, res.as_mut_ptr(), &mut count, pr),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(count, -5);
    assert_eq!(res[0].workspaceSize, 77);
    assert_eq!(
        p.set(DEEPGEMMLT_MATMUL_PREF_SEARCH_MODE, 0u32),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        call(s.h, 1, res.as_mut_ptr(), &mut count, pr),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(count, 1);
    assert_eq!(res[0].state, DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(res[1].workspaceSize, 77);
    p.destroy();
}

#[test]
fn empty_and_batched_problems() {
    let s = Setup::new();
    // Batched: every layout with 4 batches and its stride.
    for (o, stride) in [(s.a, 35i64), (s.b, 21), (s.c, 15), (s.d, 15)] {
        assert_eq!(
            o.set(DEEPGEMMLT_MATRIX_LAYOUT_BATCH_COUNT, 4i32),
            DEEPGEMM_STATUS_SUCCESS
        );
        assert_eq!(
            o.set(DEEPGEMMLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, stride),
            DEEPGEMM_STATUS_SUCCESS
        );
    }
    assert_eq!(s.matmul(1.0, 1.0), DEEPGEMM_STATUS_SUCCESS);
    let c = s.recorded()[0];
    assert_eq!(c.problem.batch, 4);
    assert_eq!(
        (c.problem.a.batch, c.problem.b.batch, c.problem.d.batch),
        (35, 21, 15)
    );
    // m == 0: SUCCESS and nothing reaches the runtime, even with NULL matrices.
    for o in [s.a, s.c, s.d] {
        assert_eq!(
            o.set(DEEPGEMMLT_MATRIX_LAYOUT_ROWS, 0u64),
            DEEPGEMM_STATUS_SUCCESS
        );
    }
    let one = 1.0f32;
    let o = (&one as *const f32).cast::<c_void>();
    assert_eq!(
        s.matmul_full(o, o, [0, 0, 0, 0], null(), 0, 0),
        DEEPGEMM_STATUS_SUCCESS
    );
    // An algo is still checked: the heuristic's own passes, a foreign one is refused.
    let pr = pref();
    let (st, res, count) = s.heuristic(pr, 1);
    assert_eq!((st, count), (DEEPGEMM_STATUS_SUCCESS, 1));
    assert_eq!(
        s.matmul_full(o, o, [0, 0, 0, 0], &res[0].algo, 0, 0),
        DEEPGEMM_STATUS_SUCCESS
    );
    let zeroed = deepgemmLtMatmulAlgo_t::default();
    assert_eq!(
        s.matmul_full(o, o, [0, 0, 0, 0], &zeroed, 0, 0),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(s.recorded().len(), 1);
    Obj::Pref(pr).destroy();
}

#[test]
fn one_handle_from_many_threads() {
    let s = Setup::new();
    let (h, d, a, b, c, dd) = (
        s.h as usize,
        s.desc_raw() as usize,
        Setup::raw(s.a) as usize,
        Setup::raw(s.b) as usize,
        Setup::raw(s.c) as usize,
        Setup::raw(s.d) as usize,
    );
    let threads: Vec<_> = (0..8)
        .map(|t| {
            std::thread::spawn(move || {
                for i in 0..50 {
                    let alpha = (t * 100 + i) as f32;
                    let beta = 0.0f32;
                    let st = deepgemmLtMatmul(
                        h as _,
                        d as _,
                        (&alpha as *const f32).cast(),
                        p(A),
                        a as _,
                        p(B),
                        b as _,
                        (&beta as *const f32).cast(),
                        p(C),
                        c as _,
                        D as *mut c_void,
                        dd as _,
                        null(),
                        null_mut(),
                        0,
                        null_mut(),
                    );
                    assert_eq!(st, DEEPGEMM_STATUS_SUCCESS);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let mut alphas: Vec<i64> = s
        .recorded()
        .iter()
        .map(|c| match c.ptrs.alpha {
            Scalar::Host(v) => v as i64,
            Scalar::Device(_) => -1,
        })
        .collect();
    alphas.sort();
    let expect: Vec<i64> = (0..8)
        .flat_map(|t| (0..50).map(move |i| t * 100 + i))
        .collect();
    assert_eq!(alphas, expect);
}

/// An odd leading dimension on an H200: the heuristic lists the Hopper plan on packed copies
/// first, with the copies' bytes as its workspace, when MAX_WORKSPACE_BYTES allows; the
/// portable plan (no workspace) otherwise. Its algo reaches the runtime as that plan and
/// needs its workspace.
#[test]
fn odd_leading_dimensions_get_a_packed_plan_with_workspace() {
    let h = testing::recording_lt_handle(DeviceSpec::H200);
    let d = desc(DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F);
    assert_eq!(
        Obj::Desc(d).set(DEEPGEMMLT_MATMUL_DESC_TRANSA, DEEPGEMM_OP_T),
        DEEPGEMM_STATUS_SUCCESS
    );
    // TN, m = n = 2048, k = 4097: lda = ldb = 4097 elements (8194 bytes, not 16-byte units).
    let a = layout(DEEPGEMM_R_16BF, 4097, 2048, 4097);
    let b = layout(DEEPGEMM_R_16BF, 4097, 2048, 4097);
    let c = layout(DEEPGEMM_R_16BF, 2048, 2048, 2048);
    // Each copy: 2048 lines of 4160 elements (4097 rounded up to 128 bytes); B at 256 bytes.
    let need = (2048u64 * 4160 * 2).next_multiple_of(256) + 2048 * 4160 * 2;
    let heuristic = |max_ws: u64| {
        let pr = pref();
        assert_eq!(
            Obj::Pref(pr).set(DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, max_ws),
            DEEPGEMM_STATUS_SUCCESS
        );
        let res = all_algos(h, d, [a, b, c], pr);
        Obj::Pref(pr).destroy();
        res
    };
    // Packed Hopper plans first (their schedules may add Stream-K workspace after the
    // copies), then the same in blocks that need less (plan::slab, each less than the one
    // before), the portable plan last.
    let all = heuristic(1 << 30);
    assert!(all.len() >= 3);
    let (portable, hopper) = all.split_last().unwrap();
    assert_eq!(portable.workspaceSize, 0, "the portable plan, last");
    let whole = hopper
        .iter()
        .take_while(|r| r.workspaceSize as u64 >= need)
        .count();
    let slabs = &hopper[whole..];
    assert!(whole >= 1 && !slabs.is_empty());
    assert!(
        slabs
            .windows(2)
            .all(|w| w[1].workspaceSize < w[0].workspaceSize)
    );
    assert!(slabs.iter().all(|r| r.workspaceSize > 0));
    let res = [
        *hopper
            .iter()
            .find(|r| r.workspaceSize as u64 == need)
            .expect("a packed data-parallel plan"),
        *portable,
        slabs[0],
    ];
    // Less workspace than the whole copies: the slab plans and the portable one.
    let fits = heuristic(need - 1);
    assert_eq!(fits.len(), slabs.len() + 1);
    assert_eq!(fits.last().unwrap().algo.data, res[1].algo.data);
    assert_eq!(fits[0].algo.data, slabs[0].algo.data);
    let none = heuristic(slabs.last().unwrap().workspaceSize as u64 - 1);
    assert_eq!(none.len(), 1);
    assert_eq!(none[0].algo.data, res[1].algo.data);

    let one = 1.0f32;
    let o = (&one as *const f32).cast::<c_void>();
    let call = |algo: &deepgemmLtMatmulAlgo_t, ws_size: usize| {
        deepgemmLtMatmul(
            h,
            d,
            o,
            p(A),
            a,
            p(B),
            b,
            o,
            p(C),
            c,
            D as *mut c_void,
            c,
            algo,
            0x100_0000 as *mut c_void,
            ws_size,
            STREAM as deepgemmStream_t,
        )
    };
    assert_eq!(call(&res[0].algo, need as usize), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(
        call(&res[0].algo, need as usize - 1),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    let rec = testing::lt_recorded(h);
    assert_eq!(rec.len(), 1);
    let plan = rec[0].plan.expect("an explicit plan");
    assert_eq!(plan.workspace, need);
    assert!(plan.name().contains("+pack_ab"), "{}", plan.name());
    let spec = plan.pack.unwrap();
    assert_eq!((spec.a.unwrap().ld, spec.b.unwrap().ld), (4160, 4160));
    // A slab plan's algo runs that plan, within its own workspace.
    let ws = res[2].workspaceSize;
    assert_eq!(call(&res[2].algo, ws), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(call(&res[2].algo, ws - 1), DEEPGEMM_STATUS_INVALID_VALUE);
    let rec = testing::lt_recorded(h);
    let plan = rec.last().unwrap().plan.expect("an explicit plan");
    assert!(
        plan.is_slabbed() && plan.workspace == ws as u64,
        "{}",
        plan.name()
    );
    for o in [Obj::Desc(d), Obj::Layout(a), Obj::Layout(b), Obj::Layout(c)] {
        o.destroy();
    }
    assert_eq!(deepgemmLtDestroy(h), DEEPGEMM_STATUS_SUCCESS);
}

/// MIN_ALIGNMENT_A/B_BYTES below TMA's 16 (PyTorch sets them to its pointers' alignment): the
/// heuristic lists only plans that run at such addresses (the Hopper kernel on a packed copy
/// of the operand, then in blocks whose copies fit less workspace, then the portable plan),
/// their algos run there; an algo of the aligned list is refused at such an address, as
/// cuBLASLt refuses an algo whose alignment the pointers do not meet. Without an algo, a call
/// at such an address with less workspace than a whole copy runs in blocks (it ran the
/// portable kernel before).
#[test]
fn min_alignment_preferences_list_algos_that_run_there() {
    let h = testing::recording_lt_handle(DeviceSpec::H200);
    let d = desc(DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F);
    assert_eq!(
        Obj::Desc(d).set(DEEPGEMMLT_MATMUL_DESC_TRANSA, DEEPGEMM_OP_T),
        DEEPGEMM_STATUS_SUCCESS
    );
    // TN bf16 2048 x 2048 x 4096, every stride aligned.
    let a = layout(DEEPGEMM_R_16BF, 4096, 2048, 4096);
    let b = layout(DEEPGEMM_R_16BF, 4096, 2048, 4096);
    let c = layout(DEEPGEMM_R_16BF, 2048, 2048, 2048);
    let copy_a = 2048u64 * 4096 * 2;
    let heuristic = |max_ws: u64, align: [u32; 4]| {
        let pr = pref();
        let pref = Obj::Pref(pr);
        assert_eq!(
            pref.set(DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, max_ws),
            DEEPGEMM_STATUS_SUCCESS
        );
        for (attr, v) in [
            DEEPGEMMLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
            DEEPGEMMLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
            DEEPGEMMLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES,
            DEEPGEMMLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES,
        ]
        .into_iter()
        .zip(align)
        {
            assert_eq!(pref.set(attr, v), DEEPGEMM_STATUS_SUCCESS);
        }
        let res = all_algos(h, d, [a, b, c], pr);
        pref.destroy();
        res
    };
    let one = 1.0f32;
    let o = (&one as *const f32).cast::<c_void>();
    let call = |algo: Option<&deepgemmLtMatmulAlgo_t>, a_at: usize, ws_size: usize| {
        deepgemmLtMatmul(
            h,
            d,
            o,
            p(a_at),
            a,
            p(B),
            b,
            o,
            p(C),
            c,
            D as *mut c_void,
            c,
            algo.map_or(null(), |x| x as *const _),
            0x100_0000 as *mut c_void,
            ws_size,
            STREAM as deepgemmStream_t,
        )
    };
    let last_plan = || testing::lt_recorded(h).last().unwrap().plan.unwrap();

    // Default alignments (256) and 16: the aligned list, whose best plan reads A in place.
    let aligned = heuristic(1 << 30, [256; 4]);
    assert_eq!(heuristic(1 << 30, [16; 4]), aligned);
    assert_eq!(aligned[0].algo.data[6], 0);
    assert_eq!(
        call(Some(&aligned[0].algo), A, 1 << 30),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert!(last_plan().pack.is_none(), "{}", last_plan().name());
    // ... which a call with A 2 bytes off cannot run.
    assert_eq!(
        call(Some(&aligned[0].algo), A + 2, 1 << 30),
        DEEPGEMM_STATUS_NOT_SUPPORTED
    );
    // C's and D's alignments change nothing here (only a transposed plan with a bias along n
    // stores D through TMA unconditionally).
    assert_eq!(heuristic(1 << 30, [256, 256, 2, 2]), aligned);

    // A at 2 bytes: A packed whole first, then blocks of rows, then the portable plan.
    let listed = heuristic(1 << 30, [2, 256, 256, 256]);
    assert!(listed.len() >= 3);
    assert!(
        listed.iter().all(|r| r.algo.data[6] == 1),
        "A's bit in word 6"
    );
    let (portable, hopper) = listed.split_last().unwrap();
    assert_eq!(portable.workspaceSize, 0);
    let whole = hopper
        .iter()
        .take_while(|r| r.workspaceSize as u64 >= copy_a)
        .count();
    assert!(whole >= 1 && whole < hopper.len(), "copies and blocks");
    assert_eq!(
        call(Some(&hopper[0].algo), A + 2, 1 << 30),
        DEEPGEMM_STATUS_SUCCESS
    );
    let packed = last_plan();
    assert!(packed.name().contains("+pack_a"), "{}", packed.name());
    assert_eq!(packed.pack.unwrap().a.unwrap().src_ld, 4096);
    // The same algo with A aligned after all: it packs A anyway.
    assert_eq!(
        call(Some(&hopper[0].algo), A, 1 << 30),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(last_plan(), packed);
    // The first block plan: within its own workspace, at A + 2.
    let slab = hopper[whole];
    let ws = slab.workspaceSize;
    assert!((ws as u64) < copy_a);
    assert_eq!(call(Some(&slab.algo), A + 2, ws), DEEPGEMM_STATUS_SUCCESS);
    let blocks = last_plan();
    assert!(
        blocks.is_slabbed() && blocks.slabs[1] == 1,
        "{}",
        blocks.name()
    );
    assert_eq!(
        call(Some(&slab.algo), A + 2, ws - 1),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    // Word 6 is checked: an unknown bit is refused; A's algo read as the aligned list's is
    // another problem's, whose configuration and family have no plan there that takes A at
    // A + 2: deepgemm's choice in that list that does (the portable kernel).
    let mut x = hopper[0].algo;
    x.data[6] = 4;
    assert_eq!(
        call(Some(&x), A + 2, 1 << 30),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    x.data[6] = 0;
    assert_eq!(call(Some(&x), A + 2, 1 << 30), DEEPGEMM_STATUS_SUCCESS);
    assert!(
        matches!(last_plan().kernel, deepgemm::plan::Kernel::Portable(_)),
        "{}",
        last_plan().name()
    );
    // Less workspace than A's copy: the blocks come first.
    let short = heuristic(copy_a - 256, [2, 256, 256, 256]);
    assert_eq!(short[0].algo.data, slab.algo.data);

    // B at 8 bytes: blocks of columns; both: either.
    let b_listed = heuristic(copy_a - 256, [256, 8, 256, 256]);
    assert!(b_listed.iter().all(|r| r.algo.data[6] == 2));
    let both = heuristic(1 << 30, [4, 4, 256, 256]);
    assert!(both.iter().all(|r| r.algo.data[6] == 3));
    assert_eq!(
        call(Some(&both[0].algo), A + 4, 1 << 30),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert!(
        last_plan().name().contains("+pack_ab"),
        "{}",
        last_plan().name()
    );

    // algo = NULL: the call's own addresses choose (the planner, as gemm::run asks it).
    {
        use deepgemm::problem::{GemmPointers, GemmProblem, MatrixSpec, OpSpec};
        let mut op = OpSpec::new(DEEPGEMM_COMPUTE_32F, 0);
        op.trans_a = 1;
        let col = |r, c, ld| MatrixSpec::col(DEEPGEMM_R_16BF, r, c, ld);
        let prob = GemmProblem::new(
            &op,
            &col(4096, 2048, 4096),
            &col(4096, 2048, 4096),
            &col(2048, 2048, 2048),
            &col(2048, 2048, 2048),
        )
        .unwrap();
        let ptrs = GemmPointers {
            alpha: Scalar::Host(1.0),
            beta: Scalar::Host(0.0),
            a: A as u64 + 2,
            b: B as u64,
            c: C as u64,
            d: D as u64,
            bias: 0,
        };
        let chosen =
            |ws| plan::cache::choose_for_call(&prob, &DeviceSpec::H200, &ptrs, ws).unwrap();
        assert_eq!(chosen(1 << 30), packed);
        assert_eq!(chosen(ws as u64), blocks, "blocks, not the portable kernel");
        assert!(matches!(chosen(0).kernel, plan::Kernel::Portable(_)));
    }
    for o in [Obj::Desc(d), Obj::Layout(a), Obj::Layout(b), Obj::Layout(c)] {
        o.destroy();
    }
    assert_eq!(deepgemmLtDestroy(h), DEEPGEMM_STATUS_SUCCESS);
}

/// REDUCTION_SCHEME_MASK without COMPUTE_TYPE (2): no plan that splits k and adds fp32
/// partials (Stream-K, split-K, split-K clusters) is listed; with the default mask they are
/// (a long k over few tiles).
#[test]
fn reduction_scheme_mask_excludes_split_plans() {
    use deepgemm::problem::{GemmProblem, MatrixSpec, OpSpec};
    let h = testing::recording_lt_handle(DeviceSpec::H200);
    let d = desc(DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F);
    assert_eq!(
        Obj::Desc(d).set(DEEPGEMMLT_MATMUL_DESC_TRANSA, DEEPGEMM_OP_T),
        DEEPGEMM_STATUS_SUCCESS
    );
    let (m, n, k) = (256u64, 256u64, 65536u64);
    let a = layout(DEEPGEMM_R_16BF, k, m, k as i64);
    let b = layout(DEEPGEMM_R_16BF, k, n, k as i64);
    let c = layout(DEEPGEMM_R_16BF, m, n, m as i64);
    let mut op = OpSpec::new(DEEPGEMM_COMPUTE_32F, 0);
    op.trans_a = 1;
    let col = |r, cc, ld| MatrixSpec::col(DEEPGEMM_R_16BF, r, cc, ld);
    let prob = GemmProblem::new(
        &op,
        &col(k, m, k as i64),
        &col(k, n, k as i64),
        &col(m, n, m as i64),
        &col(m, n, m as i64),
    )
    .unwrap();
    let listed = |mask: Option<u32>| -> Vec<plan::Plan> {
        let pr = pref();
        let pref = Obj::Pref(pr);
        assert_eq!(
            pref.set(DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, 1u64 << 30),
            DEEPGEMM_STATUS_SUCCESS
        );
        if let Some(mask) = mask {
            assert_eq!(
                pref.set(DEEPGEMMLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, mask),
                DEEPGEMM_STATUS_SUCCESS
            );
        }
        let res = all_algos(h, d, [a, b, c], pr);
        pref.destroy();
        res.iter()
            .map(|r| plan::cache::from_algo(&r.algo.data, &prob, &DeviceSpec::H200).unwrap())
            .collect()
    };
    let all = listed(None);
    assert!(
        all.iter().any(|p| p.reduces()),
        "a long k is split by default"
    );
    for mask in [0u32, 1, 4, 5] {
        let kept = listed(Some(mask));
        assert!(!kept.is_empty());
        assert!(kept.iter().all(|p| !p.reduces()), "mask {mask}");
        assert_eq!(
            kept,
            all.iter()
                .filter(|p| !p.reduces())
                .copied()
                .collect::<Vec<_>>()
        );
    }
    assert_eq!(listed(Some(2)), all);
    for o in [Obj::Desc(d), Obj::Layout(a), Obj::Layout(b), Obj::Layout(c)] {
        o.destroy();
    }
    assert_eq!(deepgemmLtDestroy(h), DEEPGEMM_STATUS_SUCCESS);
}

#[test]
fn algo_check_reports_what_the_heuristic_listed() {
    // 512x512x16384 bf16 (sm90 plans, the split ones with workspace) and Setup's small one.
    let big = Setup {
        h: testing::recording_lt_handle(DeviceSpec::H200),
        desc: Obj::Desc(desc(DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F)),
        a: Obj::Layout(layout(DEEPGEMM_R_16BF, 512, 16384, 512)),
        b: Obj::Layout(layout(DEEPGEMM_R_16BF, 16384, 512, 16384)),
        c: Obj::Layout(layout(DEEPGEMM_R_16BF, 512, 512, 512)),
        d: Obj::Layout(layout(DEEPGEMM_R_16BF, 512, 512, 512)),
    };
    let small = Setup::new();
    let pr = pref();
    let ws: u64 = 64 << 20;
    assert_eq!(
        deepgemmLtMatmulPreferenceSetAttribute(
            pr,
            DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
            (&ws as *const u64).cast(),
            8
        ),
        DEEPGEMM_STATUS_SUCCESS
    );
    let blank = deepgemmLtMatmulHeuristicResult_t {
        algo: deepgemmLtMatmulAlgo_t { data: [7; 8] },
        workspaceSize: 77,
        state: DEEPGEMM_STATUS_LICENSE_ERROR,
        wavesCount: -1.0,
        reserved: [9; 4],
    };
    let check = |s: &Setup, algo: *const deepgemmLtMatmulAlgo_t, out| {
        deepgemmLtMatmulAlgoCheck(
            s.h,
            s.desc_raw(),
            Setup::raw(s.a),
            Setup::raw(s.b),
            Setup::raw(s.c),
            Setup::raw(s.d),
            algo,
            out,
        )
    };
    let (st, res, count) = big.heuristic(pr, 8);
    assert_eq!(st, DEEPGEMM_STATUS_SUCCESS);
    assert!(count > 1, "{count} candidates");
    let listed = &res[..count as usize];
    assert!(listed.iter().any(|r| r.workspaceSize > 0));
    // Each listed algo checks out with the heuristic's own figures.
    for r in listed {
        let mut out = blank;
        assert_eq!(check(&big, &r.algo, &mut out), DEEPGEMM_STATUS_SUCCESS);
        assert_eq!(
            out.algo.data, [7; 8],
            "the algo field is never written (cuBLASLt)"
        );
        assert_eq!(out.workspaceSize, r.workspaceSize);
        assert_eq!(out.wavesCount, r.wavesCount);
        assert_eq!(out.state, DEEPGEMM_STATUS_SUCCESS);
        assert_eq!(out.reserved, [0; 4]);
    }
    // Another problem's algo runs its configuration here (cuBLASLt's reuse of an algo across
    // shapes): checked as such, with the workspace of the plan it resolves to.
    let (st, small_res, _) = small.heuristic(pr, 1);
    assert_eq!(st, DEEPGEMM_STATUS_SUCCESS);
    for (s, algo) in [(&big, &small_res[0].algo), (&small, &listed[0].algo)] {
        let mut out = blank;
        let st = check(s, algo, &mut out);
        if st == DEEPGEMM_STATUS_SUCCESS {
            assert_eq!(out.state, DEEPGEMM_STATUS_SUCCESS);
            assert_ne!(out.workspaceSize, 77);
        } else {
            assert_eq!(st, DEEPGEMM_STATUS_NOT_SUPPORTED);
            assert_eq!(out.workspaceSize, 77);
        }
    }
    // Refused, with the result untouched: one deepgemm never made (or of other types), NULL
    // arguments.
    let zeroed = deepgemmLtMatmulAlgo_t::default();
    let mut corrupt = listed[0].algo;
    corrupt.data[0] ^= 1;
    let mut other_types = listed[0].algo;
    other_types.data[7] ^= 1 << 7; // the configuration's implementation: another type
    for algo in [&corrupt, &zeroed, &other_types] {
        let mut out = blank;
        assert_eq!(check(&big, algo, &mut out), DEEPGEMM_STATUS_INVALID_VALUE);
        assert_eq!(out.workspaceSize, 77);
    }
    let mut out = blank;
    assert_eq!(check(&big, null(), &mut out), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(
        check(&big, &listed[0].algo, null_mut()),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(out.workspaceSize, 77);
    // A NULL handle or operation descriptor.
    let with = |h, desc, out| {
        deepgemmLtMatmulAlgoCheck(
            h,
            desc,
            Setup::raw(big.a),
            Setup::raw(big.b),
            Setup::raw(big.c),
            Setup::raw(big.d),
            &listed[0].algo,
            out,
        )
    };
    assert_eq!(
        with(null_mut(), big.desc_raw(), &mut out),
        DEEPGEMM_STATUS_NOT_INITIALIZED
    );
    assert_eq!(
        with(big.h, null_mut(), &mut out),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(out.workspaceSize, 77);
    Obj::Pref(pr).destroy();
}
