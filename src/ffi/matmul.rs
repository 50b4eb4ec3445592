//! deepgemmLtMatmul and deepgemmLtMatmulAlgoGetHeuristic.

use std::ffi::c_void;

use super::boundary::{
    check_out, ffi_boundary, read_algo, read_host_f32, try_handle, try_stored, write_out,
    write_results,
};
use super::types::*;
use crate::api;
use crate::error::Error;
use crate::problem::{GemmPointers, GemmProblem, Scalar};
use crate::types::PointerMode;

/// One operation's descriptors, each checked non-NULL (INVALID_VALUE naming the first that
/// is): what AlgoGetHeuristic, AlgoCheck and Matmul take alike.
struct Operation<'a> {
    desc: &'a api::MatmulDesc,
    layouts: [&'a api::MatrixLayout; 4],
}

impl<'a> Operation<'a> {
    /// `what`: the descriptor argument's name in the caller's signature. A NULL Cdesc is
    /// Ddesc, as cuBLASLt documents ("if Cdesc is omitted, ... assumes it to be equal to
    /// Ddesc"; a review found it INVALID_VALUE).
    fn new(
        desc: deepgemmLtMatmulDesc_t,
        what: &str,
        [a, b, c, d]: [deepgemmLtMatrixLayout_t; 4],
    ) -> crate::Result<Operation<'a>> {
        let c = if c.is_null() { d } else { c };
        Ok(Operation {
            desc: try_stored(desc, what)?,
            layouts: [
                try_stored(a, "Adesc")?,
                try_stored(b, "Bdesc")?,
                try_stored(c, "Cdesc")?,
                try_stored(d, "Ddesc")?,
            ],
        })
    }

    fn problem(&self) -> crate::Result<(GemmProblem, api::matmul_desc::DescSnapshot)> {
        let [a, b, c, d] = self.layouts;
        api::matmul::problem(self.desc, a, b, c, d)
    }
}

/// alpha/beta as the problem's pointer mode says: host floats are read now, device
/// addresses are passed on.
pub(crate) fn scalars(
    p: &GemmProblem,
    alpha: *const c_void,
    beta: *const c_void,
) -> crate::Result<(Scalar, Scalar)> {
    Ok(match p.pointer_mode {
        PointerMode::Host => (
            Scalar::Host(read_host_f32(alpha, "alpha")?),
            Scalar::Host(read_host_f32(beta, "beta")?),
        ),
        PointerMode::Device => (Scalar::Device(alpha as u64), Scalar::Device(beta as u64)),
    })
}

/// Asks for up to `requestedAlgoCount` algorithms for the operation, best first. On
/// success `heuristicResultsArray[0..*returnAlgoCount]` is written (each with state
/// SUCCESS, its workspace size and waves count). When nothing fits, returns
/// DEEPGEMM_STATUS_NOT_SUPPORTED and sets `*returnAlgoCount` to 0. INVALID_VALUE for
/// `requestedAlgoCount < 1` or a NULL argument; NOT_INITIALIZED for a NULL handle. The
/// algorithms are for the handle's device (as many of its SMs as the descriptor's
/// SM_COUNT_TARGET allows), and only those the preference's IMPL_MASK allows. With the
/// preference's SEARCH_MODE DEEPGEMMLT_SEARCH_LIMITED_BY_ALGO_ID, `heuristicResultsArray[0].algo`
/// is read first (an algo from deepgemmLtMatmulAlgoInit; INVALID_VALUE otherwise) and the
/// results are the best configurations of its algo id for the operation, one a configuration.
#[unsafe(no_mangle)]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub extern "C" fn deepgemmLtMatmulAlgoGetHeuristic(
    lightHandle: deepgemmLtHandle_t,
    operationDesc: deepgemmLtMatmulDesc_t,
    Adesc: deepgemmLtMatrixLayout_t,
    Bdesc: deepgemmLtMatrixLayout_t,
    Cdesc: deepgemmLtMatrixLayout_t,
    Ddesc: deepgemmLtMatrixLayout_t,
    preference: deepgemmLtMatmulPreference_t,
    requestedAlgoCount: i32,
    heuristicResultsArray: *mut deepgemmLtMatmulHeuristicResult_t,
    returnAlgoCount: *mut i32,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatmulAlgoGetHeuristic", || {
        let h = try_handle(lightHandle)?;
        let op = Operation::new(operationDesc, "operationDesc", [Adesc, Bdesc, Cdesc, Ddesc])?;
        let pref = try_stored(preference, "preference")?;
        check_out(heuristicResultsArray, "heuristicResultsArray")?;
        check_out(returnAlgoCount, "returnAlgoCount")?;
        if requestedAlgoCount < 1 {
            return Err(crate::invalid!(
                "requestedAlgoCount = {requestedAlgoCount} < 1"
            ));
        }
        let pref = pref.snapshot();
        // LIMITED_BY_ALGO_ID reads the family from the caller's first result's algo (set by
        // AlgoInit): an input, read before anything is written.
        let limit_to = if pref.search_mode == api::matmul::SEARCH_LIMITED_BY_ALGO_ID {
            // SAFETY: non-NULL (check_out); the caller promises requestedAlgoCount >= 1
            // results there; unaligned read because C callers are not bound to Rust's alignment.
            let first =
                unsafe { std::ptr::addr_of!((*heuristicResultsArray).algo).read_unaligned() };
            Some(crate::plan::algo::View::of(&first.data)?.config().id)
        } else {
            None
        };
        let found = op.problem().and_then(|(p, snap)| {
            api::matmul::heuristic(
                &h.backend,
                &p,
                &pref,
                requestedAlgoCount as usize,
                snap.sm_target,
                limit_to,
            )
        });
        let found = match found {
            Ok(f) => f,
            Err(e @ Error::NotSupported(_)) => {
                // cuBLASLt reports "no algorithm" as NOT_SUPPORTED with a count of 0.
                write_out(returnAlgoCount, 0)?;
                return Err(e);
            }
            Err(e) => return Err(e),
        };
        let results: Vec<deepgemmLtMatmulHeuristicResult_t> = found
            .iter()
            .map(|c| deepgemmLtMatmulHeuristicResult_t {
                algo: deepgemmLtMatmulAlgo_t { data: c.algo },
                workspaceSize: c.plan.workspace as usize,
                state: deepgemmStatus_t::DEEPGEMM_STATUS_SUCCESS,
                wavesCount: c.waves,
                reserved: [0; 4],
            })
            .collect();
        write_results(heuristicResultsArray, &results)?;
        write_out(returnAlgoCount, results.len() as i32)
    })
}

/// cublasLtMatmulAlgoCheck: whether `algo` runs this operation, and with what: on SUCCESS
/// `*result` holds the workspace it needs, its waves count and state SUCCESS (its algo field is
/// left alone, as cuBLASLt leaves it). An algo from deepgemmLtMatmulAlgoGetHeuristic runs
/// exactly the plan it was listed for on the problem it was listed for (its shape, types,
/// layouts, epilogue, SM_COUNT_TARGET and, under a MIN_ALIGNMENT_*_BYTES preference below 16,
/// the alignments); on another problem of its types it runs its configuration: the best plan of
/// that problem the configuration admits, else its family's best, else deepgemm's choice for
/// it (INVALID_VALUE for other types). An algo from deepgemmLtMatmulAlgoInit (or reconfigured)
/// runs any problem of its types on the best plan its configuration admits: NOT_SUPPORTED
/// where none does, INVALID_VALUE for other types. INVALID_VALUE (nothing written) for an algo deepgemm did not
/// make or a NULL argument; NOT_INITIALIZED for a NULL handle. The operands' addresses are not
/// known here: deepgemmLtMatmul checks the algo against them.
#[unsafe(no_mangle)]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub extern "C" fn deepgemmLtMatmulAlgoCheck(
    lightHandle: deepgemmLtHandle_t,
    operationDesc: deepgemmLtMatmulDesc_t,
    Adesc: deepgemmLtMatrixLayout_t,
    Bdesc: deepgemmLtMatrixLayout_t,
    Cdesc: deepgemmLtMatrixLayout_t,
    Ddesc: deepgemmLtMatrixLayout_t,
    algo: *const deepgemmLtMatmulAlgo_t,
    result: *mut deepgemmLtMatmulHeuristicResult_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatmulAlgoCheck", || {
        let h = try_handle(lightHandle)?;
        let op = Operation::new(operationDesc, "operationDesc", [Adesc, Bdesc, Cdesc, Ddesc])?;
        check_out(result, "result")?;
        let data = read_algo(algo).ok_or_else(|| crate::invalid!("algo is NULL"))?;
        let (p, snap) = op.problem()?;
        let found = api::matmul::check_algo(&h.backend, &p, &data, snap.sm_target)?;
        // cuBLASLt never updates the result's algo field: every other field is written.
        // SAFETY: non-NULL (check_out), the caller promises a writable result there;
        // unaligned writes because C callers are not bound to Rust's alignment.
        unsafe {
            std::ptr::addr_of_mut!((*result).workspaceSize)
                .write_unaligned(found.plan.workspace as usize);
            std::ptr::addr_of_mut!((*result).state)
                .write_unaligned(deepgemmStatus_t::DEEPGEMM_STATUS_SUCCESS);
            std::ptr::addr_of_mut!((*result).wavesCount).write_unaligned(found.waves);
            std::ptr::addr_of_mut!((*result).reserved).write_unaligned([0; 4]);
        }
        Ok(())
    })
}

/// D = epilogue(alpha * op(A) op(B) + beta * C), cuBLASLt semantics. Asynchronous: returns
/// once the work is enqueued on `stream`. `algo` NULL lets deepgemm choose; otherwise it
/// must come from deepgemmLtMatmulAlgoGetHeuristic (for this problem: exactly its plan; for
/// another of the same types, as cuBLASLt allows, its configuration) or from
/// deepgemmLtMatmulAlgoInit (then the best plan its configuration admits for this call's
/// workspace and pointers runs: see deepgemmLtMatmulAlgoCheck). C may alias D
/// (identical layouts); a NULL Cdesc is Ddesc. The workspace must be 256-byte aligned and at least the algo's
/// workspaceSize. alpha and beta are host floats (POINTER_MODE HOST) or device pointers
/// to floats (DEVICE). A `stream` of another device than the handle's (for NULL: the
/// current context's device) returns DEEPGEMM_STATUS_INVALID_VALUE and enqueues nothing.
/// One call may enqueue several launches (packed copies, the GEMM, blocks in turn), all on
/// `stream` and through `workspace`: as with cuBLASLt, a workspace serves one call at a time,
/// so threads that enqueue onto one stream at once need a workspace each.
#[unsafe(no_mangle)]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub extern "C" fn deepgemmLtMatmul(
    lightHandle: deepgemmLtHandle_t,
    computeDesc: deepgemmLtMatmulDesc_t,
    alpha: *const c_void,
    A: *const c_void,
    Adesc: deepgemmLtMatrixLayout_t,
    B: *const c_void,
    Bdesc: deepgemmLtMatrixLayout_t,
    beta: *const c_void,
    C: *const c_void,
    Cdesc: deepgemmLtMatrixLayout_t,
    D: *mut c_void,
    Ddesc: deepgemmLtMatrixLayout_t,
    algo: *const deepgemmLtMatmulAlgo_t,
    workspace: *mut c_void,
    workspaceSizeInBytes: usize,
    stream: deepgemmStream_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatmul", || {
        let h = try_handle(lightHandle)?;
        let op = Operation::new(computeDesc, "computeDesc", [Adesc, Bdesc, Cdesc, Ddesc])?;
        let (p, snap) = op.problem()?;
        let (alpha, beta) = scalars(&p, alpha, beta)?;
        let ptrs = GemmPointers {
            alpha,
            beta,
            a: A as u64,
            b: B as u64,
            c: C as u64,
            d: D as u64,
            bias: if p.epilogue.bias { snap.bias } else { 0 },
        };
        api::matmul::matmul(
            &h.backend,
            &p,
            &ptrs,
            read_algo(algo).as_ref(),
            workspace as u64,
            workspaceSizeInBytes as u64,
            stream.cast(),
            snap.sm_target,
        )
    })
}
