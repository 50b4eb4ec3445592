//! The only `#[no_mangle]` functions of the library: cuBLAS's and cuBLASLt's GEMM entry
//! points, and cuBLAS's cublasSetWorkspace_v2, cublasDestroy_v2 and cublasSetStream_v2
//! (forwarded, after noting or forgetting the handle's workspace: `workspace`), with their exact C signatures. exports.map (the linker version script) lists
//! the same names; tests/symbols.rs checks that the .so exports these and nothing else.
//!
//! Each is a thin shell: find the real function (else NOT_INITIALIZED), then `dispatch`
//! with the decision, a description for the per-call log, and the forward (the real
//! function with the caller's arguments, untouched).
#![allow(non_snake_case, clippy::too_many_arguments)]

use std::ffi::c_void;

use deepgemm::api::blas::GemmExArgs;
use deepgemm::types::{compute_type as ct, cuda_data_type as dt};

use crate::blas::{self, ExPtrs};
use crate::decide::Forward;
use crate::dispatch::{dispatch, missing};
use crate::lt::{self, LtCall};
use crate::real::{self, Handle, Status};
use crate::stats::{Entry, Reason};

/// The addresses of our exports: a lookup of the real function that returns one of them
/// (a second interposer, RTLD_NEXT oddities) is discarded.
pub fn addresses() -> [usize; 10] {
    [
        cublasLtMatmul as *const () as usize,
        cublasGemmEx as *const () as usize,
        cublasGemmStridedBatchedEx as *const () as usize,
        cublasGemmBatchedEx as *const () as usize,
        cublasSgemm_v2 as *const () as usize,
        cublasSgemmStridedBatched as *const () as usize,
        cublasHgemm as *const () as usize,
        cublasSetWorkspace_v2 as *const () as usize,
        cublasDestroy_v2 as *const () as usize,
        cublasSetStream_v2 as *const () as usize,
    ]
}

/// A real non-GEMM function that could not be found: NOT_INITIALIZED, said once per name.
fn missing_function(name: &str, said: &std::sync::atomic::AtomicBool) -> Status {
    if !said.swap(true, std::sync::atomic::Ordering::Relaxed) {
        let _ = std::panic::catch_unwind(|| {
            crate::stats::emit(&format!(
                "deepgemm-preload: the real {name} was not found; returning \
                 CUBLAS_STATUS_NOT_INITIALIZED\n"
            ))
        });
    }
    crate::dispatch::STATUS_NOT_INITIALIZED
}

/// cublasSetWorkspace_v2: forwarded; what the real library accepts is noted for the handle,
/// whose substituted classic GEMMs then get that workspace (`workspace`).
///
/// # Safety
/// cuBLAS's contract for cublasSetWorkspace_v2.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cublasSetWorkspace_v2(
    handle: Handle,
    workspace: *mut c_void,
    workspaceSizeInBytes: usize,
) -> Status {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let Some(f) = real::blas().set_workspace else {
        return missing_function("cublasSetWorkspace_v2", &SAID);
    };
    // SAFETY: the real function with the caller's arguments.
    let status = unsafe { f(handle, workspace, workspaceSizeInBytes) };
    if status == crate::dispatch::STATUS_SUCCESS {
        // Never unwinds into C: a panic here (a bug) only loses the note.
        let _ = std::panic::catch_unwind(|| {
            crate::workspace::set(handle, workspace, workspaceSizeInBytes)
        });
    }
    status
}

/// cublasDestroy_v2: the handle's workspace is forgotten, then the real function runs.
///
/// # Safety
/// cuBLAS's contract for cublasDestroy_v2.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cublasDestroy_v2(handle: Handle) -> Status {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let _ = std::panic::catch_unwind(|| crate::workspace::forget(handle));
    let Some(f) = real::blas().destroy else {
        return missing_function("cublasDestroy_v2", &SAID);
    };
    // SAFETY: the real function with the caller's argument.
    unsafe { f(handle) }
}

/// cublasSetStream_v2: forwarded; when the real library accepts it, the handle's noted
/// workspace is forgotten, as cuBLAS resets a handle's workspace to its default pool on
/// SetStream (a buffer given for one stream's work must not serve another's, and the caller
/// may free it, believing cuBLAS no longer uses it: a session-51 review).
///
/// # Safety
/// cuBLAS's contract for cublasSetStream_v2.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cublasSetStream_v2(handle: Handle, streamId: *mut c_void) -> Status {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let Some(f) = real::blas().set_stream else {
        return missing_function("cublasSetStream_v2", &SAID);
    };
    // SAFETY: the real function with the caller's arguments.
    let status = unsafe { f(handle, streamId) };
    if status == crate::dispatch::STATUS_SUCCESS {
        let _ = std::panic::catch_unwind(|| crate::workspace::reset(handle));
    }
    status
}

/// cublasLtMatmul: substituted when deepgemm computes the described operation exactly;
/// `algo` (from the real heuristic) is ignored then.
///
/// # Safety
/// cuBLASLt's contract for cublasLtMatmul.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cublasLtMatmul(
    lightHandle: Handle,
    computeDesc: *mut c_void,
    alpha: *const c_void,
    A: *const c_void,
    Adesc: *mut c_void,
    B: *const c_void,
    Bdesc: *mut c_void,
    beta: *const c_void,
    C: *const c_void,
    Cdesc: *mut c_void,
    D: *mut c_void,
    Ddesc: *mut c_void,
    algo: *const c_void,
    workspace: *mut c_void,
    workspaceSizeInBytes: usize,
    stream: *mut c_void,
) -> Status {
    let real = real::lt();
    let Some(f) = real.matmul else {
        return missing(Entry::LtMatmul);
    };
    let x = LtCall {
        desc: computeDesc,
        alpha,
        a: A,
        a_desc: Adesc,
        b: B,
        b_desc: Bdesc,
        beta,
        c: C,
        c_desc: Cdesc,
        d: D,
        d_desc: Ddesc,
        workspace,
        workspace_size: workspaceSizeInBytes,
        stream,
    };
    dispatch(
        Entry::LtMatmul,
        // SAFETY: the caller's cublasLtMatmul arguments, as cuBLASLt requires them.
        || unsafe { lt::substitute(real, &x) },
        || format!("desc={computeDesc:p} stream={stream:p} workspace={workspaceSizeInBytes}"),
        // SAFETY: the real cublasLtMatmul with the caller's arguments.
        || unsafe {
            f(
                lightHandle,
                computeDesc,
                alpha,
                A,
                Adesc,
                B,
                Bdesc,
                beta,
                C,
                Cdesc,
                D,
                Ddesc,
                algo,
                workspace,
                workspaceSizeInBytes,
                stream,
            )
        },
    )
}

/// Shared by the classic entry points: dispatch a `GemmExArgs` call.
fn classic<F: FnOnce() -> Status>(
    entry: Entry,
    handle: Handle,
    x: GemmExArgs,
    p: ExPtrs,
    forward: F,
) -> Status {
    dispatch(
        entry,
        // SAFETY: the caller's cuBLAS arguments, as cuBLAS requires them.
        || unsafe { blas::substitute(real::blas(), handle, &x, &p) },
        || blas::describe_args(&x),
        forward,
    )
}

/// # Safety
/// cuBLAS's contract for cublasGemmEx.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cublasGemmEx(
    handle: Handle,
    transa: i32,
    transb: i32,
    m: i32,
    n: i32,
    k: i32,
    alpha: *const c_void,
    A: *const c_void,
    Atype: i32,
    lda: i32,
    B: *const c_void,
    Btype: i32,
    ldb: i32,
    beta: *const c_void,
    C: *mut c_void,
    Ctype: i32,
    ldc: i32,
    computeType: i32,
    algo: i32,
) -> Status {
    let Some(f) = real::blas().gemm_ex else {
        return missing(Entry::GemmEx);
    };
    let x = GemmExArgs {
        transa,
        transb,
        m,
        n,
        k,
        a_type: Atype,
        lda,
        stride_a: 0,
        b_type: Btype,
        ldb,
        stride_b: 0,
        c_type: Ctype,
        ldc,
        stride_c: 0,
        batch: 1,
        compute_type: computeType,
        algo,
    };
    let p = ExPtrs {
        alpha,
        a: A,
        b: B,
        beta,
        c: C,
    };
    // SAFETY (forward): the real function with the caller's arguments.
    classic(Entry::GemmEx, handle, x, p, || unsafe {
        f(
            handle,
            transa,
            transb,
            m,
            n,
            k,
            alpha,
            A,
            Atype,
            lda,
            B,
            Btype,
            ldb,
            beta,
            C,
            Ctype,
            ldc,
            computeType,
            algo,
        )
    })
}

/// # Safety
/// cuBLAS's contract for cublasGemmStridedBatchedEx.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cublasGemmStridedBatchedEx(
    handle: Handle,
    transa: i32,
    transb: i32,
    m: i32,
    n: i32,
    k: i32,
    alpha: *const c_void,
    A: *const c_void,
    Atype: i32,
    lda: i32,
    strideA: i64,
    B: *const c_void,
    Btype: i32,
    ldb: i32,
    strideB: i64,
    beta: *const c_void,
    C: *mut c_void,
    Ctype: i32,
    ldc: i32,
    strideC: i64,
    batchCount: i32,
    computeType: i32,
    algo: i32,
) -> Status {
    let Some(f) = real::blas().gemm_strided_batched_ex else {
        return missing(Entry::GemmStridedBatchedEx);
    };
    let x = GemmExArgs {
        transa,
        transb,
        m,
        n,
        k,
        a_type: Atype,
        lda,
        stride_a: strideA,
        b_type: Btype,
        ldb,
        stride_b: strideB,
        c_type: Ctype,
        ldc,
        stride_c: strideC,
        batch: batchCount,
        compute_type: computeType,
        algo,
    };
    let p = ExPtrs {
        alpha,
        a: A,
        b: B,
        beta,
        c: C,
    };
    // SAFETY (forward): the real function with the caller's arguments.
    classic(Entry::GemmStridedBatchedEx, handle, x, p, || unsafe {
        f(
            handle,
            transa,
            transb,
            m,
            n,
            k,
            alpha,
            A,
            Atype,
            lda,
            strideA,
            B,
            Btype,
            ldb,
            strideB,
            beta,
            C,
            Ctype,
            ldc,
            strideC,
            batchCount,
            computeType,
            algo,
        )
    })
}

/// Always forwarded (counted): deepgemm has no pointer-array batches.
///
/// # Safety
/// cuBLAS's contract for cublasGemmBatchedEx.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cublasGemmBatchedEx(
    handle: Handle,
    transa: i32,
    transb: i32,
    m: i32,
    n: i32,
    k: i32,
    alpha: *const c_void,
    Aarray: *const *const c_void,
    Atype: i32,
    lda: i32,
    Barray: *const *const c_void,
    Btype: i32,
    ldb: i32,
    beta: *const c_void,
    Carray: *const *mut c_void,
    Ctype: i32,
    ldc: i32,
    batchCount: i32,
    computeType: i32,
    algo: i32,
) -> Status {
    let Some(f) = real::blas().gemm_batched_ex else {
        return missing(Entry::GemmBatchedEx);
    };
    dispatch(
        Entry::GemmBatchedEx,
        || {
            Err(Forward::new(
                Reason::PointerArray,
                "deepgemm has no pointer-array batches",
            ))
        },
        || format!("m={m} n={n} k={k} batch={batchCount} types=({Atype},{Btype},{Ctype})"),
        // SAFETY: the real function with the caller's arguments.
        || unsafe {
            f(
                handle,
                transa,
                transb,
                m,
                n,
                k,
                alpha,
                Aarray,
                Atype,
                lda,
                Barray,
                Btype,
                ldb,
                beta,
                Carray,
                Ctype,
                ldc,
                batchCount,
                computeType,
                algo,
            )
        },
    )
}

/// fp32 GEMM: exact fp32 unless the handle's math mode allows TF32.
///
/// # Safety
/// cuBLAS's contract for cublasSgemm_v2.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cublasSgemm_v2(
    handle: Handle,
    transa: i32,
    transb: i32,
    m: i32,
    n: i32,
    k: i32,
    alpha: *const f32,
    A: *const f32,
    lda: i32,
    B: *const f32,
    ldb: i32,
    beta: *const f32,
    C: *mut f32,
    ldc: i32,
) -> Status {
    let Some(f) = real::blas().sgemm else {
        return missing(Entry::Sgemm);
    };
    let x = GemmExArgs::sgemm(transa, transb, [m, n, k], [lda, ldb, ldc], [0; 3], 1);
    let p = ExPtrs {
        alpha: alpha.cast(),
        a: A.cast(),
        b: B.cast(),
        beta: beta.cast(),
        c: C.cast(),
    };
    // SAFETY (forward): the real function with the caller's arguments.
    classic(Entry::Sgemm, handle, x, p, || unsafe {
        f(
            handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc,
        )
    })
}

/// # Safety
/// cuBLAS's contract for cublasSgemmStridedBatched.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cublasSgemmStridedBatched(
    handle: Handle,
    transa: i32,
    transb: i32,
    m: i32,
    n: i32,
    k: i32,
    alpha: *const f32,
    A: *const f32,
    lda: i32,
    strideA: i64,
    B: *const f32,
    ldb: i32,
    strideB: i64,
    beta: *const f32,
    C: *mut f32,
    ldc: i32,
    strideC: i64,
    batchCount: i32,
) -> Status {
    let Some(f) = real::blas().sgemm_strided_batched else {
        return missing(Entry::SgemmStridedBatched);
    };
    let x = GemmExArgs::sgemm(
        transa,
        transb,
        [m, n, k],
        [lda, ldb, ldc],
        [strideA, strideB, strideC],
        batchCount,
    );
    let p = ExPtrs {
        alpha: alpha.cast(),
        a: A.cast(),
        b: B.cast(),
        beta: beta.cast(),
        c: C.cast(),
    };
    // SAFETY (forward): the real function with the caller's arguments.
    classic(Entry::SgemmStridedBatched, handle, x, p, || unsafe {
        f(
            handle, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc,
            strideC, batchCount,
        )
    })
}

/// fp16 GEMM with fp16 accumulation (COMPUTE_16F, half alpha/beta): deepgemm accumulates
/// in fp32 only, so the decision always forwards it, counted as a compute type.
///
/// # Safety
/// cuBLAS's contract for cublasHgemm.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cublasHgemm(
    handle: Handle,
    transa: i32,
    transb: i32,
    m: i32,
    n: i32,
    k: i32,
    alpha: *const u16,
    A: *const u16,
    lda: i32,
    B: *const u16,
    ldb: i32,
    beta: *const u16,
    C: *mut u16,
    ldc: i32,
) -> Status {
    let Some(f) = real::blas().hgemm else {
        return missing(Entry::Hgemm);
    };
    let x = GemmExArgs {
        transa,
        transb,
        m,
        n,
        k,
        a_type: dt::R_16F,
        lda,
        stride_a: 0,
        b_type: dt::R_16F,
        ldb,
        stride_b: 0,
        c_type: dt::R_16F,
        ldc,
        stride_c: 0,
        batch: 1,
        compute_type: ct::COMPUTE_16F,
        algo: -1,
    };
    let p = ExPtrs {
        alpha: alpha.cast(),
        a: A.cast(),
        b: B.cast(),
        beta: beta.cast(),
        c: C.cast(),
    };
    // SAFETY (forward): the real function with the caller's arguments.
    classic(Entry::Hgemm, handle, x, p, || unsafe {
        f(
            handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc,
        )
    })
}
