//! cublasLtMatmul and cublasLtMatmulAlgoGetHeuristic over the safe objects.
//!
//! The C boundary calls `problem` first (descriptors -> validated `GemmProblem`), reads
//! alpha and beta the way the problem's pointer mode says, then calls `matmul`.

use std::ffi::c_void;

use super::handle::Backend;
use super::matmul_desc::{DescSnapshot, MatmulDesc};
use super::matrix_layout::MatrixLayout;
use super::preference::PrefSnapshot;
use crate::error::Result;
use crate::plan::{self, Plan};
use crate::problem::{GemmPointers, GemmProblem};
use crate::{invalid, log_trace, unsupported};

/// cublasLtReductionScheme_t's COMPUTE_TYPE: partials kept in the compute type (fp32).
const REDUCTION_COMPUTE_TYPE: u32 = 2;

/// cuBLASLt requires the workspace pointer to be 256-byte aligned.
pub const WORKSPACE_ALIGNMENT: u64 = 256;

/// The validated problem of a matmul call, and the descriptor state it came from.
pub fn problem(
    desc: &MatmulDesc,
    a: &MatrixLayout,
    b: &MatrixLayout,
    c: &MatrixLayout,
    d: &MatrixLayout,
) -> Result<(GemmProblem, DescSnapshot)> {
    let snap = desc.snapshot()?;
    reject_emulated(snap.op.compute_type)?;
    let p = GemmProblem::new(&snap.op, &a.spec()?, &b.spec()?, &c.spec()?, &d.spec()?)?;
    Ok((p, snap))
}

/// The CUDA 13 emulated compute types are valid values deepgemm does not implement; the
/// shared validation (`GemmProblem::new`) predates them and would call them unknown.
pub fn reject_emulated(compute_type: i32) -> Result<()> {
    use super::attr::{COMPUTE_32F_EMULATED_16BFX9, COMPUTE_64F_EMULATED_FIXEDPOINT};
    if compute_type == COMPUTE_32F_EMULATED_16BFX9
        || compute_type == COMPUTE_64F_EMULATED_FIXEDPOINT
    {
        return Err(unsupported!("emulated compute type {compute_type}"));
    }
    Ok(())
}

/// cuBLASLt's rules for a workspace (a matmul's, or cublasSetWorkspace's): NULL only with a
/// size of 0, and 256-byte aligned.
pub fn check_workspace(workspace: u64, workspace_size: u64) -> Result<()> {
    if workspace == 0 && workspace_size > 0 {
        return Err(invalid!(
            "workspace is NULL but workspaceSizeInBytes is {workspace_size}"
        ));
    }
    if workspace % WORKSPACE_ALIGNMENT != 0 {
        return Err(invalid!(
            "workspace {workspace:#x} is not {WORKSPACE_ALIGNMENT}-byte aligned"
        ));
    }
    Ok(())
}

/// Checks a call's pointers and workspace and runs it with the caller's algo (if any), which
/// the backend decodes (`plan::cache::for_call`). `algo == None` lets deepgemm choose, as
/// cuBLASLt does for a NULL algo. `sm_target`: SM_COUNT_TARGET (0: every SM).
#[allow(clippy::too_many_arguments)]
pub fn matmul(
    backend: &Backend,
    p: &GemmProblem,
    ptrs: &GemmPointers,
    algo: Option<&[u64; 8]>,
    workspace: u64,
    workspace_size: u64,
    stream: *mut c_void,
    sm_target: u32,
) -> Result<()> {
    ptrs.check(p)?;
    check_workspace(workspace, workspace_size)?;
    if p.is_empty() || p.batch == 0 {
        // D has no element: nothing to do (cuBLASLt returns SUCCESS), but an algo that does
        // not fit the problem or the workspace is still refused.
        if let Some(a) = algo {
            let dev = backend.device_spec()?.with_sm_target(sm_target);
            plan::cache::decode_algo(a, p, &dev, workspace_size)?;
        }
        return Ok(());
    }
    log_trace!(
        "deepgemmLtMatmul",
        "m={} n={} k={} batch={} ab={:?} cd={:?} math={:?} op=({:?},{:?}) epilogue={:?} sms={} plan={}",
        p.m,
        p.n,
        p.k,
        p.batch,
        p.ab_type,
        p.cd_type,
        p.math,
        p.op_a,
        p.op_b,
        p.epilogue,
        sm_target,
        algo_label(backend, p, algo, sm_target)
    );
    // The algo is decoded by the backend, where the stream's device is known: resolving the
    // stream's context here too would cost the driver calls twice.
    backend.run(p, ptrs, algo, stream, workspace, workspace_size, sm_target)
}

/// The trace's name for the plan of a call (only computed when tracing).
fn algo_label(
    backend: &Backend,
    p: &GemmProblem,
    algo: Option<&[u64; 8]>,
    sm_target: u32,
) -> String {
    match algo {
        None => "heuristic".into(),
        Some(a) => backend
            .device_spec()
            .and_then(|dev| plan::cache::from_algo(a, p, &dev.with_sm_target(sm_target)))
            .map_or_else(|e| format!("refused algo ({e})"), |pl| pl.name()),
    }
}

/// Pointers no more aligned than `min_alignment` (bytes, for A, B, C, D) allows: an address
/// that is a multiple of the promised alignment and of no larger power of two (below 256),
/// so a plan accepts them exactly when it runs at every address the caller may pass. The
/// heuristic does not know beta: a C the same way.
fn worst_pointers(p: &GemmProblem, min_alignment: &[u32; 4]) -> GemmPointers {
    // 0 promises nothing: as 1. Below 16 bytes the address is 16 - align past a 16-byte
    // boundary: a multiple of `align` and of no larger power of two.
    let at = |base: u64, align: u32| {
        let align = align.clamp(1, 256) as u64;
        base + if align < 16 { 16 - align } else { align % 256 }
    };
    GemmPointers {
        alpha: crate::problem::Scalar::Host(1.0),
        beta: crate::problem::Scalar::Host(1.0),
        a: at(0x1000_0000, min_alignment[0]),
        b: at(0x2000_0000, min_alignment[1]),
        c: at(0x3000_0000, min_alignment[2]),
        d: at(0x4000_0000, min_alignment[3]),
        bias: if p.epilogue.bias { 0x5000_0000 } else { 0 },
    }
}

/// One heuristic result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    pub plan: Plan,
    /// `plan.to_algo()`, computed once per problem by the plan cache.
    pub algo: [u64; 8],
    pub waves: f32,
}

/// cublasLtMatmulAlgoCheck: `algo` decoded for `p` on the handle's device (INVALID_VALUE when
/// it is not one of the plans the heuristic makes for this problem, `plan::cache::from_algo`),
/// with what a heuristic result reports of it. Pointers are not known here: Matmul still
/// checks the algo against the call's addresses and workspace. `sm_target`: SM_COUNT_TARGET.
pub fn check_algo(
    backend: &Backend,
    p: &GemmProblem,
    algo: &[u64; 8],
    sm_target: u32,
) -> Result<Candidate> {
    let dev = backend.device_spec()?.with_sm_target(sm_target);
    let plan = plan::cache::from_algo(algo, p, &dev)?;
    Ok(Candidate {
        plan,
        algo: *algo,
        waves: plan.waves(&dev),
    })
}

/// cublasLtMatmulSearch_t's LIMITED_BY_ALGO_ID.
pub const SEARCH_LIMITED_BY_ALGO_ID: u32 = 1;

/// Up to `requested` candidates, best first, planned for `sm_target` SMs (SM_COUNT_TARGET; 0:
/// all); NOT_SUPPORTED when none fits. Under SEARCH_MODE LIMITED_BY_ALGO_ID, `limit_to` is the
/// family (algo id) of the caller's `heuristicResultsArray[0].algo`: the best configurations of
/// that family for the problem (`plan::cache::family_candidates`), each a distinct one, the
/// heuristic's own plans first. Only algos whose numerical implementation IMPL_MASK allows are
/// listed.
pub fn heuristic(
    backend: &Backend,
    p: &GemmProblem,
    pref: &PrefSnapshot,
    requested: usize,
    sm_target: u32,
    limit_to: Option<i32>,
) -> Result<Vec<Candidate>> {
    if requested == 0 {
        return Err(invalid!("requestedAlgoCount must be at least 1"));
    }
    if pref.search_mode > SEARCH_LIMITED_BY_ALGO_ID {
        return Err(unsupported!(
            "SEARCH_MODE {} (BEST_FIT 0 and LIMITED_BY_ALGO_ID 1 only)",
            pref.search_mode
        ));
    }
    let limit_to = if pref.search_mode == SEARCH_LIMITED_BY_ALGO_ID {
        Some(limit_to.ok_or_else(|| {
            invalid!(
                "SEARCH_LIMITED_BY_ALGO_ID needs heuristicResultsArray[0].algo set by AlgoInit"
            )
        })?)
    } else {
        None
    };
    // The handle's device (its facts are cached: no context is resolved), as many SMs of it
    // as the call may use.
    let dev = backend.device_spec()?.with_sm_target(sm_target);
    // The caller's MIN_ALIGNMENT_*_BYTES: addresses at those alignments, and the list made for
    // A and B there (packed copies where TMA cannot read them in place).
    // With every alignment TMA's 16 bytes or more (the defaults), the list is as before: a
    // plan that also needs C's layout for TMA when beta != 0 stays listed (the call's beta
    // decides, as it always did).
    let worst = worst_pointers(p, &pref.min_alignment);
    let misaligned = plan::pack::pointer_misfits(&worst);
    let below_tma = pref.min_alignment.iter().any(|&a| a < 16);
    let keep = |pl: &Plan| {
        pl.workspace <= pref.max_workspace
            && (!below_tma || pl.accepts(p, &worst))
            // deepgemm's splits add fp32 partials: listed only where the mask allows that.
            && (!pl.may_reduce() || pref.reduction_mask & REDUCTION_COMPUTE_TYPE != 0)
            && pl.types().imp().numerical_flags() & !pref.impl_mask == 0
            && (pref.max_waves <= 0.0 || pl.waves(&dev) <= pref.max_waves)
    };
    let ranked: Vec<(Plan, [u64; 8])> = match limit_to {
        None => plan::cache::candidates_for(p, &dev, misaligned)?
            .iter()
            .filter(|(pl, _)| keep(pl))
            .map(|(pl, a)| (*pl, *a))
            .collect(),
        Some(family) => plan::cache::family_candidates(p, &dev, misaligned, family, keep)?,
    };
    let mut fitting: Vec<Candidate> = ranked
        .iter()
        .map(|&(plan, algo)| Candidate {
            plan,
            algo,
            waves: plan.waves(&dev),
        })
        .collect();
    let tune = limit_to.is_none() && !dev.partial;
    if matches!(backend, Backend::Gpu { .. }) && plan::tuned::enabled() && tune {
        // DEEPGEMM_AUTOTUNE=1: the tuned winner first (tuning on first sight).
        let plans: Vec<plan::Plan> = fitting.iter().map(|c| c.plan).collect();
        if let Some(name) =
            crate::gemm::tuned_choice(p, &plans, misaligned, pref.max_workspace, backend.device())
        {
            plan::tuned::prefer(&mut fitting, &name, |c| &c.plan);
        }
    }
    let out: Vec<Candidate> = fitting.into_iter().take(requested).collect();
    if out.is_empty() {
        return Err(unsupported!(
            "no algorithm fits (max workspace {} bytes, max waves {}, impl mask {:#x}{})",
            pref.max_workspace,
            pref.max_waves,
            pref.impl_mask,
            limit_to.map_or(String::new(), |f| format!(", algo id {f}"))
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{MatrixSpec, OpSpec};
    use crate::types::{compute_type::COMPUTE_32F, cuda_data_type::*};

    /// An alignment below 16 bytes gives the address furthest from the 16-byte boundary below
    /// it that the alignment allows, of exactly that power of two; 16 and above, that
    /// alignment past a 256-byte boundary.
    #[test]
    fn worst_pointers_are_the_furthest_off_the_grid() {
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = 1;
        let a = MatrixSpec::col(R_16BF, 1004, 1024, 1008);
        let b = MatrixSpec::col(R_16BF, 1004, 1024, 1008);
        let c = MatrixSpec::col(R_16BF, 1024, 1024, 1024);
        let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
        for (align, off) in [
            (0, 15),
            (1, 15),
            (2, 14),
            (4, 12),
            (8, 8),
            (16, 16),
            (256, 0),
        ] {
            let w = worst_pointers(&p, &[align, align, align, align]);
            for addr in [w.a, w.b, w.c, w.d] {
                assert_eq!(addr % 256, off, "align {align}");
                let a = (align as u64).clamp(1, 256);
                assert!(
                    addr % a == 0 && (a == 256 || addr % (2 * a) != 0),
                    "align {align}"
                );
            }
        }
    }
}
