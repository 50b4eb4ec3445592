//! The cuBLAS-style handle API: deepgemmCreate, streams, pointer mode, GemmEx.

use std::ffi::c_void;

use super::boundary::{check_out, ffi_boundary, free_box, to_boxed_ptr, try_handle, write_out};
use super::matmul::scalars;
use super::types::*;
use crate::api;
use crate::api::blas::GemmExArgs;
use crate::problem::{GemmPointers, GemmProblem};

/// Creates a cuBLAS-style handle (stream NULL, pointer mode HOST). NOT_INITIALIZED when no
/// CUDA driver or device can be used. `*handle` is written only on success; free it with
/// deepgemmDestroy. The handle is bound to the device current when it is created (device 0
/// when no context is current): create one handle per device.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmCreate(handle: *mut deepgemmHandle_t) -> deepgemmStatus_t {
    ffi_boundary("deepgemmCreate", || {
        check_out(handle, "handle")?;
        let h = api::BlasHandle::new()?;
        write_out(handle, to_boxed_ptr::<deepgemmContext>(h))
    })
}

/// Destroys a handle made by deepgemmCreate; NULL is a no-op. When the handle allocated
/// default workspaces (deepgemmGemmEx with none set), it first waits for the work of their
/// contexts to finish (as cublasDestroy synchronises) and frees them.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmDestroy(handle: deepgemmHandle_t) -> deepgemmStatus_t {
    ffi_boundary("deepgemmDestroy", || {
        free_box(handle);
        Ok(())
    })
}

/// Sets the stream later calls on this handle are enqueued on (NULL: default stream), and, as
/// cublasSetStream does, resets the workspace (deepgemmSetWorkspace) to the handle's default.
/// As with cuBLAS the stream is not checked here: a GEMM on a stream of another device than the handle's
/// returns DEEPGEMM_STATUS_INVALID_VALUE.
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmSetStream(
    handle: deepgemmHandle_t,
    streamId: deepgemmStream_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmSetStream", || {
        try_handle(handle)?.set_stream(streamId.cast());
        Ok(())
    })
}

/// cublasSetWorkspace: `workspaceSizeInBytes` bytes of device memory at `workspace` that later
/// GEMMs on this handle may use (Stream-K and split-K partials, packed copies of operands TMA
/// cannot read in place, as deepgemmLtMatmul's workspace); the caller keeps it alive while
/// they run. 256-byte aligned; NULL with a size: DEEPGEMM_STATUS_INVALID_VALUE; NULL with 0:
/// no workspace. Without this call (and after deepgemmSetStream, which resets it, as in
/// cuBLAS) a GEMM uses the handle's default workspace for its stream: 32 MiB on Hopper and
/// later, 4 MiB before (cuBLAS's default sizes; `DEEPGEMM_HANDLE_WORKSPACE_MIB` sets another,
/// 0 none), allocated at the first GEMM on each stream (at most 8 streams; the NULL stream is
/// one a context; a failed allocation leaves that stream without one), none while the stream
/// captures a graph, freed by deepgemmDestroy. Threads sharing the handle and a stream take
/// turns enqueuing their GEMMs on its default workspace.
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmSetWorkspace(
    handle: deepgemmHandle_t,
    workspace: *mut c_void,
    workspaceSizeInBytes: usize,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmSetWorkspace", || {
        try_handle(handle)?.set_workspace(workspace as u64, workspaceSizeInBytes as u64)
    })
}

/// Writes the handle's stream to `*streamId`.
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmGetStream(
    handle: deepgemmHandle_t,
    streamId: *mut deepgemmStream_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmGetStream", || {
        let h = try_handle(handle)?;
        write_out(streamId, h.stream().cast())
    })
}

/// Sets where alpha and beta live: DEEPGEMM_POINTER_MODE_HOST (0) or _DEVICE (1).
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmSetPointerMode(
    handle: deepgemmHandle_t,
    mode: deepgemmPointerMode_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmSetPointerMode", || {
        try_handle(handle)?.set_pointer_mode(mode)
    })
}

/// Writes the handle's pointer mode to `*mode`.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmGetPointerMode(
    handle: deepgemmHandle_t,
    mode: *mut deepgemmPointerMode_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmGetPointerMode", || {
        let h = try_handle(handle)?;
        write_out(mode, h.pointer_mode())
    })
}

/// cublasSetMathMode: DEEPGEMM_DEFAULT_MATH (0), DEEPGEMM_TENSOR_OP_MATH (1, deprecated; fp32
/// stays exact), DEEPGEMM_PEDANTIC_MATH (2) or DEEPGEMM_TF32_TENSOR_OP_MATH (3), optionally
/// | DEEPGEMM_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION (16: always honoured, every split adds
/// fp32 partials); INVALID_VALUE otherwise. It decides the compute type of later GemmEx calls
/// as in cuBLAS: fp32 inputs at DEEPGEMM_COMPUTE_32F run on TF32 tensor cores only under
/// TF32_TENSOR_OP_MATH (never with NVIDIA_TF32_OVERRIDE=0), pedantic math keeps the
/// prescribed precision (16-bit inputs then run without tensor cores, on the portable FFMA
/// kernel, and an explicit COMPUTE_32F_FAST_TF32 on fp32 inputs runs exact).
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmSetMathMode(
    handle: deepgemmHandle_t,
    mode: deepgemmMath_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmSetMathMode", || {
        try_handle(handle)?.set_math_mode(mode)
    })
}

/// Writes the handle's math mode to `*mode` (DEEPGEMM_DEFAULT_MATH for a new handle).
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmGetMathMode(
    handle: deepgemmHandle_t,
    mode: *mut deepgemmMath_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmGetMathMode", || {
        let h = try_handle(handle)?;
        write_out(mode, h.math_mode())
    })
}

/// cublasSetSmCountTarget: later GEMMs on this handle are planned for `smCountTarget` SMs
/// (at most that many CTAs of the Hopper, skinny and pack kernels at once, one an SM, no
/// cluster larger, no launch under the previous kernel), leaving the device's other SMs to
/// work the caller runs beside them (communication kernels, another stream); 0 (the default)
/// or more than the device has: all. The portable kernels are not persistent and take SMs as
/// they free. INVALID_VALUE below 0; NOT_INITIALIZED for a
/// NULL handle. The matmul descriptor's DEEPGEMMLT_MATMUL_DESC_SM_COUNT_TARGET does the same
/// for deepgemmLtMatmul.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmSetSmCountTarget(
    handle: deepgemmHandle_t,
    smCountTarget: i32,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmSetSmCountTarget", || {
        try_handle(handle)?.set_sm_target(smCountTarget)
    })
}

/// Writes the handle's SM count target to `*smCountTarget` (0 for a new handle: all SMs).
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmGetSmCountTarget(
    handle: deepgemmHandle_t,
    smCountTarget: *mut i32,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmGetSmCountTarget", || {
        let h = try_handle(handle)?;
        write_out(smCountTarget, h.sm_target())
    })
}

/// Shared body of GemmEx, GemmStridedBatchedEx and (`arrays`: A, B and C are arrays of
/// per-batch matrix pointers) GemmBatchedEx.
#[allow(clippy::too_many_arguments)]
fn gemm_ex(
    handle: deepgemmHandle_t,
    x: &GemmExArgs,
    alpha: *const c_void,
    a: *const c_void,
    b: *const c_void,
    beta: *const c_void,
    c: *mut c_void,
    arrays: bool,
) -> crate::Result<()> {
    let h = try_handle(handle)?;
    let x = &GemmExArgs {
        compute_type: api::blas::effective_compute(
            api::blas::migrate_legacy_compute(x.compute_type, h.math_mode())?,
            x.a_type,
            h.math_mode(),
            api::blas::tf32_override_off(),
        ),
        ..*x
    };
    let Some((mut op, sa, sb, sc)) = api::blas::describe(x)? else {
        return Ok(());
    };
    op.pointer_mode = h.pointer_mode();
    let mut p = GemmProblem::new(&op, &sa, &sb, &sc, &sc)?;
    p.pointer_arrays = arrays;
    let (alpha, beta) = scalars(&p, alpha, beta)?;
    let ptrs = GemmPointers {
        alpha,
        beta,
        a: a as u64,
        b: b as u64,
        c: c as u64,
        d: c as u64,
        bias: 0,
    };
    h.with_stream_workspace(|stream, (workspace, workspace_size)| {
        api::matmul::matmul(
            &h.backend,
            &p,
            &ptrs,
            None,
            workspace,
            workspace_size,
            stream,
            h.sm_target() as u32,
        )
    })
}

/// C = alpha * op(A) op(B) + beta * C (cublasGemmEx; column-major; C is both input and
/// output), on the handle's stream with its workspace (deepgemmSetWorkspace, else the handle's
/// default one for the stream: see deepgemmSetWorkspace). Negative m, n, k or a leading dimension below its minimum: INVALID_VALUE;
/// m or n == 0: SUCCESS, nothing done. The handle's stream on another device than the
/// handle's: INVALID_VALUE, nothing enqueued. Every cublasGemmAlgo_t value except AUTOTUNE is
/// accepted and means "let deepgemm choose". `computeType` may also be a cudaDataType, cuBLAS
/// 10's form that cublas_api.h's C++ overloads migrate: DEEPGEMM_R_32F / C_32F, R_64F / C_64F,
/// R_16F and R_32I become COMPUTE_32F, 64F, 16F and 32I (their _PEDANTIC forms under
/// DEEPGEMM_PEDANTIC_MATH), another data type is NOT_SUPPORTED (also in
/// deepgemmGemmStridedBatchedEx).
#[unsafe(no_mangle)]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub extern "C" fn deepgemmGemmEx(
    handle: deepgemmHandle_t,
    transa: deepgemmOperation_t,
    transb: deepgemmOperation_t,
    m: i32,
    n: i32,
    k: i32,
    alpha: *const c_void,
    A: *const c_void,
    Atype: deepgemmDataType_t,
    lda: i32,
    B: *const c_void,
    Btype: deepgemmDataType_t,
    ldb: i32,
    beta: *const c_void,
    C: *mut c_void,
    Ctype: deepgemmDataType_t,
    ldc: i32,
    computeType: deepgemmComputeType_t,
    algo: deepgemmGemmAlgo_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmGemmEx", || {
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
        gemm_ex(handle, &x, alpha, A, B, beta, C, false)
    })
}

/// deepgemmGemmEx over `batchCount` matrices each, matrix i of A at A + i * strideA
/// elements (likewise B, C). batchCount < 0: INVALID_VALUE; 0: SUCCESS, nothing done.
#[unsafe(no_mangle)]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub extern "C" fn deepgemmGemmStridedBatchedEx(
    handle: deepgemmHandle_t,
    transa: deepgemmOperation_t,
    transb: deepgemmOperation_t,
    m: i32,
    n: i32,
    k: i32,
    alpha: *const c_void,
    A: *const c_void,
    Atype: deepgemmDataType_t,
    lda: i32,
    strideA: i64,
    B: *const c_void,
    Btype: deepgemmDataType_t,
    ldb: i32,
    strideB: i64,
    beta: *const c_void,
    C: *mut c_void,
    Ctype: deepgemmDataType_t,
    ldc: i32,
    strideC: i64,
    batchCount: i32,
    computeType: deepgemmComputeType_t,
    algo: deepgemmGemmAlgo_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmGemmStridedBatchedEx", || {
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
        gemm_ex(handle, &x, alpha, A, B, beta, C, false)
    })
}

/// cublasGemmBatchedEx: deepgemmGemmEx over `batchCount` matrices each, matrix i of A at
/// Aarray[i] (likewise B, C): Aarray, Barray and Carray are device arrays of device pointers,
/// 8-byte aligned, each matrix pointer aligned to its element (the arrays are read on the
/// device, so a bad pointer in them faults the launch as it would cuBLAS's). Runs the
/// portable kernel's pointer-array form (`_pa`): no tensor map, copy or split takes an
/// array of addresses, so this is a correct path, not a fast one; matrices a fixed distance
/// apart run far faster through deepgemmGemmStridedBatchedEx. batchCount < 0:
/// INVALID_VALUE; 0: SUCCESS, nothing done. Arguments otherwise as deepgemmGemmEx.
#[unsafe(no_mangle)]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub extern "C" fn deepgemmGemmBatchedEx(
    handle: deepgemmHandle_t,
    transa: deepgemmOperation_t,
    transb: deepgemmOperation_t,
    m: i32,
    n: i32,
    k: i32,
    alpha: *const c_void,
    Aarray: *const *const c_void,
    Atype: deepgemmDataType_t,
    lda: i32,
    Barray: *const *const c_void,
    Btype: deepgemmDataType_t,
    ldb: i32,
    beta: *const c_void,
    Carray: *const *mut c_void,
    Ctype: deepgemmDataType_t,
    ldc: i32,
    batchCount: i32,
    computeType: deepgemmComputeType_t,
    algo: deepgemmGemmAlgo_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmGemmBatchedEx", || {
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
            batch: batchCount,
            compute_type: computeType,
            algo,
        };
        gemm_ex(
            handle,
            &x,
            alpha,
            Aarray.cast(),
            Barray.cast(),
            beta,
            Carray.cast_mut().cast(),
            true,
        )
    })
}

/// cublasSgemm: fp32 C = alpha * op(A) op(B) + beta * C, as deepgemmGemmEx with every type
/// DEEPGEMM_R_32F, DEEPGEMM_COMPUTE_32F and DEEPGEMM_GEMM_DEFAULT: exact fp32 unless the
/// handle's math mode is DEEPGEMM_TF32_TENSOR_OP_MATH (then TF32 tensor cores, as cuBLAS).
#[unsafe(no_mangle)]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub extern "C" fn deepgemmSgemm(
    handle: deepgemmHandle_t,
    transa: deepgemmOperation_t,
    transb: deepgemmOperation_t,
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
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmSgemm", || {
        let x = GemmExArgs::sgemm(transa, transb, [m, n, k], [lda, ldb, ldc], [0; 3], 1);
        gemm_ex(
            handle,
            &x,
            alpha.cast(),
            A.cast(),
            B.cast(),
            beta.cast(),
            C.cast(),
            false,
        )
    })
}

/// cublasSgemmStridedBatched: deepgemmSgemm over `batchCount` matrices each, matrix i of A at
/// A + i * strideA elements (likewise B, C). batchCount < 0: INVALID_VALUE; 0: SUCCESS, nothing
/// done.
#[unsafe(no_mangle)]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub extern "C" fn deepgemmSgemmStridedBatched(
    handle: deepgemmHandle_t,
    transa: deepgemmOperation_t,
    transb: deepgemmOperation_t,
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
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmSgemmStridedBatched", || {
        let x = GemmExArgs::sgemm(
            transa,
            transb,
            [m, n, k],
            [lda, ldb, ldc],
            [strideA, strideB, strideC],
            batchCount,
        );
        gemm_ex(
            handle,
            &x,
            alpha.cast(),
            A.cast(),
            B.cast(),
            beta.cast(),
            C.cast(),
            false,
        )
    })
}
