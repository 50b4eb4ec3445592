//! deepgemm's cuBLAS-style entry points (deepgemmGemmEx, deepgemmGemmStridedBatchedEx)
//! called from a `GemmSpec`, as a C caller would: column-major, C is both input and
//! output, alpha/beta per the handle's pointer mode.

#![allow(dead_code)]

use std::ffi::c_void;

use deepgemm::ffi::*;

use super::host::{A, B, C, GemmSpec, Order};

/// A deepgemmHandle_t, destroyed on drop.
pub struct BlasHandle(pub deepgemmHandle_t);

fn check(call: &str, s: deepgemmStatus_t) -> Result<(), String> {
    if s == deepgemmStatus_t::DEEPGEMM_STATUS_SUCCESS {
        Ok(())
    } else {
        Err(format!("deepgemm {call}: status {} ({s:?})", s as i32))
    }
}

impl BlasHandle {
    pub fn new() -> Result<BlasHandle, String> {
        let mut h: deepgemmHandle_t = std::ptr::null_mut();
        check("Create", deepgemmCreate(&mut h))?;
        Ok(BlasHandle(h))
    }

    pub fn set_stream(&self, stream: *mut c_void) -> Result<(), String> {
        check(
            "SetStream",
            deepgemmSetStream(self.0, stream as deepgemmStream_t),
        )
    }

    /// deepgemmSetWorkspace (after set_stream, which resets it).
    pub fn set_workspace(&self, ptr: u64, bytes: usize) -> Result<(), String> {
        check(
            "SetWorkspace",
            deepgemmSetWorkspace(self.0, ptr as *mut c_void, bytes),
        )
    }

    /// HOST (false) or DEVICE (true) alpha/beta.
    pub fn set_device_scalars(&self, device: bool) -> Result<(), String> {
        let mode = if device {
            DEEPGEMM_POINTER_MODE_DEVICE
        } else {
            DEEPGEMM_POINTER_MODE_HOST
        };
        check("SetPointerMode", deepgemmSetPointerMode(self.0, mode))
    }

    /// deepgemmSetMathMode.
    #[allow(dead_code)]
    pub fn set_math_mode(&self, mode: i32) -> Result<(), String> {
        check("SetMathMode", deepgemmSetMathMode(self.0, mode))
    }
}

impl Drop for BlasHandle {
    fn drop(&mut self) {
        deepgemmDestroy(self.0);
    }
}

fn i32_of(name: &str, v: u64) -> Result<i32, String> {
    i32::try_from(v).map_err(|_| format!("{name} = {v} does not fit the int argument"))
}

/// C = alpha op(A) op(B) + beta C for `spec` (which must be column-major, in place, with
/// the default epilogue). `strided` calls deepgemmGemmStridedBatchedEx (any batch),
/// otherwise deepgemmGemmEx (batch 1).
#[allow(clippy::too_many_arguments)]
pub fn gemm_ex(
    h: &BlasHandle,
    spec: &GemmSpec,
    strided: bool,
    alpha: *const c_void,
    beta: *const c_void,
    a: u64,
    b: u64,
    c: u64,
) -> Result<(), String> {
    gemm_ex_as(
        h,
        spec,
        strided,
        spec.compute_type(),
        alpha,
        beta,
        [a, b, c],
    )
}

/// As `gemm_ex`, with the compute type given instead of the spec's (what the handle's math
/// mode then turns it into is the library's business).
pub fn gemm_ex_as(
    h: &BlasHandle,
    spec: &GemmSpec,
    strided: bool,
    compute: i32,
    alpha: *const c_void,
    beta: *const c_void,
    [a, b, c]: [u64; 3],
) -> Result<(), String> {
    let ClassicArgs {
        ops: [ta, tb],
        mnk: [m, n, k],
        lds: [lda, ldb, ldc],
        strides: [sa, sb, sc],
        batch,
    } = ClassicArgs::of(spec, strided, "GemmEx")?;
    let (at, ct) = (spec.ab.cuda(), spec.cd.cuda());
    let s = if strided {
        deepgemmGemmStridedBatchedEx(
            h.0,
            ta,
            tb,
            m,
            n,
            k,
            alpha,
            a as *const c_void,
            at,
            lda,
            sa,
            b as *const c_void,
            at,
            ldb,
            sb,
            beta,
            c as *mut c_void,
            ct,
            ldc,
            sc,
            batch,
            compute,
            DEEPGEMM_GEMM_DEFAULT,
        )
    } else {
        deepgemmGemmEx(
            h.0,
            ta,
            tb,
            m,
            n,
            k,
            alpha,
            a as *const c_void,
            at,
            lda,
            b as *const c_void,
            at,
            ldb,
            beta,
            c as *mut c_void,
            ct,
            ldc,
            compute,
            DEEPGEMM_GEMM_DEFAULT,
        )
    };
    check(
        if strided {
            "GemmStridedBatchedEx"
        } else {
            "GemmEx"
        },
        s,
    )
}

/// `spec` (in place, column-major, any batch) through deepgemmGemmBatchedEx: each operand's
/// matrices where the strided form has them (base + i * batch stride), their addresses put in
/// device arrays, with `reversed` the arrays listing the matrices last to first and the batch
/// order of the call reversed with them (so matrix i of the call is the spec's batch
/// count - 1 - i, and the output lands where the strided call puts it: a kernel that read the
/// arrays out of order, or ignored them for the strides, writes the wrong batches). Waits for
/// the device before freeing the arrays.
pub fn gemm_batched_ex(
    h: &BlasHandle,
    spec: &GemmSpec,
    alpha: *const c_void,
    beta: *const c_void,
    [a, b, c]: [u64; 3],
    reversed: bool,
) -> Result<(), String> {
    let ClassicArgs {
        ops: [ta, tb],
        mnk: [m, n, k],
        lds: [lda, ldb, ldc],
        strides: [sa, sb, sc],
        batch,
    } = ClassicArgs::of(spec, true, "GemmBatchedEx")?;
    let (at, ct) = (spec.ab.cuda(), spec.cd.cuda());
    let array = |base: u64, stride: i64, elem: usize| -> Result<super::device::DevBuf, String> {
        let mut bytes = Vec::with_capacity(batch.max(1) as usize * 8);
        for i in 0..batch.max(0) as i64 {
            let j = if reversed { batch as i64 - 1 - i } else { i };
            let ptr = (base as i64 + j * stride * elem as i64) as u64;
            bytes.extend_from_slice(&ptr.to_le_bytes());
        }
        let buf = super::device::DevBuf::alloc(bytes.len().max(8))?;
        buf.upload(&bytes)?;
        Ok(buf)
    };
    let (ea, ec) = (spec.ab.size(), spec.cd.size());
    let (aa, ba, ca) = (array(a, sa, ea)?, array(b, sb, ea)?, array(c, sc, ec)?);
    // k = 0 reads neither A nor B: their arrays go NULL, as a caller may pass them.
    let (a_arr, b_arr) = if k == 0 { (0, 0) } else { (aa.ptr, ba.ptr) };
    let s = deepgemmGemmBatchedEx(
        h.0,
        ta,
        tb,
        m,
        n,
        k,
        alpha,
        a_arr as *const *const c_void,
        at,
        lda,
        b_arr as *const *const c_void,
        at,
        ldb,
        beta,
        ca.ptr as *const *mut c_void,
        ct,
        ldc,
        batch,
        spec.compute_type(),
        DEEPGEMM_GEMM_DEFAULT,
    );
    // The launch reads the arrays: they outlive it.
    let synced = cudarc::driver::result::ctx::synchronize().map_err(|e| format!("{e:?}"));
    check("GemmBatchedEx", s)?;
    synced
}

/// `spec` (fp32 in and out, in place, column-major) through deepgemmSgemm, or
/// deepgemmSgemmStridedBatched when `strided`, with C's buffer as D.
pub fn sgemm(
    h: &BlasHandle,
    spec: &GemmSpec,
    strided: bool,
    alpha: *const c_void,
    beta: *const c_void,
    [a, b, c]: [u64; 3],
) -> Result<(), String> {
    if spec.ab != super::host::DType::F32 || spec.cd != super::host::DType::F32 {
        return Err(format!("Sgemm is fp32 in and out: {spec}"));
    }
    let ClassicArgs {
        ops: [ta, tb],
        mnk: [m, n, k],
        lds: [lda, ldb, ldc],
        strides: [sa, sb, sc],
        batch,
    } = ClassicArgs::of(spec, strided, "Sgemm")?;
    let (alpha, beta) = (alpha.cast::<f32>(), beta.cast::<f32>());
    let (a, b, c) = (a as *const f32, b as *const f32, c as *mut f32);
    let s = if strided {
        deepgemmSgemmStridedBatched(
            h.0, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, batch,
        )
    } else {
        deepgemmSgemm(h.0, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    };
    check(
        if strided {
            "deepgemmSgemmStridedBatched"
        } else {
            "deepgemmSgemm"
        },
        s,
    )
}

/// The integer arguments of a classic (GemmEx / Sgemm) call for `spec`: column-major, in place,
/// no epilogue, batched only through the strided form; `what` names the call in the refusal.
struct ClassicArgs {
    ops: [i32; 2],
    mnk: [i32; 3],
    lds: [i32; 3],
    strides: [i64; 3],
    batch: i32,
}

impl ClassicArgs {
    fn of(spec: &GemmSpec, strided: bool, what: &str) -> Result<ClassicArgs, String> {
        if !spec.in_place
            || spec.order.iter().any(|&o| o != Order::Col)
            || spec.epi != super::host::Epi::Default
            || (!strided && spec.batch != 1)
        {
            return Err(format!("not expressible with {what}: {spec}"));
        }
        let (ga, gb, gc) = (spec.geom(A), spec.geom(B), spec.geom(C));
        let op = |t: bool| if t { DEEPGEMM_OP_T } else { DEEPGEMM_OP_N };
        Ok(ClassicArgs {
            ops: [op(spec.trans_a), op(spec.trans_b)],
            mnk: [
                i32_of("m", spec.m)?,
                i32_of("n", spec.n)?,
                i32_of("k", spec.k)?,
            ],
            lds: [
                i32_of("lda", ga.ld)?,
                i32_of("ldb", gb.ld)?,
                i32_of("ldc", gc.ld)?,
            ],
            strides: [
                ga.batch_stride as i64,
                gb.batch_stride as i64,
                gc.batch_stride as i64,
            ],
            batch: i32_of("batchCount", spec.batch)?,
        })
    }
}
