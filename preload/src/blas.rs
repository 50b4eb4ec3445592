//! The classic cuBLAS GEMMs (cublasGemmEx, cublasGemmStridedBatchedEx, cublasSgemm_v2,
//! cublasSgemmStridedBatched, cublasHgemm) as one `GemmExArgs`: the handle's stream, math
//! mode, pointer mode and SM count target are read through the real getters, the compute
//! type is what cuBLAS would really use under that math mode, and deepgemm's own GemmEx
//! rules (`deepgemm::api::blas::describe`) turn the call into descriptors.

use std::ffi::c_void;

use deepgemm::Error;
use deepgemm::api::blas::{GemmExArgs, describe, scale_type_for};
use deepgemm::problem::GemmPointers;
use deepgemm::problem::GemmProblem;

use crate::decide::{self, Forward};
use crate::real::{Blas, GetIntFn, Handle};
use crate::stats::Reason;

/// The pointers of one call (C is also D, as in BLAS).
#[derive(Clone, Copy, Debug)]
pub struct ExPtrs {
    pub alpha: *const c_void,
    pub a: *const c_void,
    pub b: *const c_void,
    pub beta: *const c_void,
    pub c: *mut c_void,
}

/// # Safety
/// `handle` is the caller's cuBLAS handle (or NULL, refused here).
unsafe fn get_int(f: Option<GetIntFn>, handle: Handle, what: &'static str) -> Result<i32, Forward> {
    let f = f.ok_or(Forward::new(Reason::Unreadable, what))?;
    let mut v = 0;
    // SAFETY: a getter of the real cuBLAS with a valid out-pointer; handle is non-NULL.
    if unsafe { f(handle, &mut v) } != 0 {
        return Err(Forward::new(Reason::Unreadable, what));
    }
    Ok(v)
}

/// Decides and, when deepgemm can, runs a classic GEMM call. `Ok`: enqueued on the
/// handle's stream. `Err`: why the call must go to the real cuBLAS.
///
/// # Safety
/// The arguments are those of a cuBLAS GEMM call on a live handle (or NULL handle).
pub unsafe fn substitute(
    real: &Blas,
    handle: Handle,
    x: &GemmExArgs,
    p: &ExPtrs,
) -> Result<GemmProblem, Forward> {
    // From the arguments alone first: no call into cuBLAS for what cannot be substituted.
    decide::check_types(x.a_type, x.b_type, x.c_type, x.c_type)?;
    decide::check_compute(x.compute_type, scale_type_for(x.compute_type))?;
    if handle.is_null() {
        return Err(Forward::new(Reason::Invalid, "handle is NULL"));
    }
    // SAFETY (getters): handle is a non-NULL cuBLAS handle (caller).
    let (pointer_mode, math, sm_target) = unsafe {
        (
            get_int(
                real.get_pointer_mode,
                handle,
                "cublasGetPointerMode_v2 failed",
            )?,
            get_int(real.get_math_mode, handle, "cublasGetMathMode failed")?,
            match real.get_sm_count_target {
                Some(_) => get_int(
                    real.get_sm_count_target,
                    handle,
                    "cublasGetSmCountTarget failed",
                )?,
                None => 0,
            },
        )
    };
    // The SMs the caller leaves cuBLAS (cublasSetSmCountTarget): planned for, as deepgemm's own
    // handle API does; a negative one (cuBLAS refuses it, so never set) goes to cuBLAS.
    if sm_target < 0 {
        return Err(Forward::value(
            Reason::Attribute,
            "SM count target",
            sm_target as i64,
        ));
    }
    let get_stream = real.get_stream.ok_or(Forward::new(
        Reason::Unreadable,
        "cublasGetStream_v2 not found",
    ))?;
    let mut stream: *mut c_void = std::ptr::null_mut();
    // SAFETY: as for the getters above.
    if unsafe { get_stream(handle, &mut stream) } != 0 {
        return Err(Forward::new(
            Reason::Unreadable,
            "cublasGetStream_v2 failed",
        ));
    }
    let mut x = *x;
    x.compute_type = decide::effective_compute(
        x.compute_type,
        x.a_type,
        math,
        crate::config::tf32_disabled(),
    )?;
    let (mut op, a, b, c) = match describe(&x) {
        Ok(Some(d)) => d,
        Ok(None) => return Err(Forward::new(Reason::Empty, "m, n or batchCount is 0")),
        Err(e @ Error::InvalidValue(_)) => return Err(Forward::error(Reason::Invalid, e)),
        Err(e) => return Err(Forward::error(Reason::Unsupported, e)),
    };
    op.pointer_mode = pointer_mode;
    let problem = decide::problem(&op, &a, &b, &c, &c)?;
    // SAFETY: HOST pointer mode scalars are host floats (scale type R_32F was checked).
    let (alpha, beta) = unsafe { crate::lt::scalars(&problem, p.alpha, p.beta) }?;
    let ptrs = GemmPointers {
        alpha,
        beta,
        a: p.a as u64,
        b: p.b as u64,
        c: p.c as u64,
        d: p.c as u64,
        bias: 0,
    };
    // The workspace the caller gave this handle (cublasSetWorkspace_v2), which cuBLAS would
    // use on this stream too; none when it gave none.
    let (workspace, workspace_size) = crate::workspace::get(handle);
    crate::lt::run(
        &problem,
        &ptrs,
        workspace,
        workspace_size,
        stream,
        sm_target as u32,
    )?;
    Ok(problem)
}

/// The call as the per-call log shows it.
pub fn describe_args(x: &GemmExArgs) -> String {
    format!(
        "m={} n={} k={} batch={} op=({},{}) types=({},{},{}) compute={}",
        x.m, x.n, x.k, x.batch, x.transa, x.transb, x.a_type, x.b_type, x.c_type, x.compute_type
    )
}
