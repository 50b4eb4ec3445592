//! One GEMM call end to end: device of the stream -> plan (through `plan::cache`) -> registry
//! -> launch. This is the only module the C boundary calls to run work.

use std::ffi::c_void;

use cudarc::driver::sys::{self, CUstream};

use crate::error::{Error, Result};
use crate::jit::pack::PackParams;
use crate::jit::params::GemmParams;
use crate::plan::{self, DeviceSpec, Kernel, Plan, pack, sm90};
use crate::problem::{GemmPointers, GemmProblem};
use crate::runtime::tensor_map::{self, Sm90Args};
use crate::runtime::{autotune, driver, registry, trace};
use crate::{invalid, unsupported};

/// Makes sure the driver is loadable, initialised and has at least one device.
/// `Error::NotInitialized` otherwise (never panics, never exits).
pub fn init() -> Result<()> {
    driver::init()
}

/// With `DEEPGEMM_AUTOTUNE=1`: the name of the tuned winner among `plans` (already filtered for
/// the call, best first by the model) for `problem` on the calling thread's current device,
/// tuning now on first sight. None when autotuning is off or the tuning failed.
/// `misaligned`: which of A and B the plans' list assumes off TMA's grid (their algos' word 6).
/// `device`: the handle's, which `plans` were made for; tuning runs in the current context and
/// is skipped where that is another device's (the plans would be timed on the wrong GPU and
/// filed under its key: a review).
pub fn tuned_choice(
    problem: &GemmProblem,
    plans: &[Plan],
    misaligned: plan::pack::Which,
    max_workspace: u64,
    device: i32,
) -> Option<String> {
    if !plan::tuned::enabled() {
        return None;
    }
    let ctx = driver::enter(std::ptr::null_mut()).ok()?;
    if ctx.device.ordinal != device {
        crate::log::hint(
            "autotune",
            format!(
                "not tuned: the heuristic's handle is on device {device}, device {} is current",
                ctx.device.ordinal
            ),
        );
        return None;
    }
    autotune::tuned_name(
        &ctx,
        problem,
        plans,
        misaligned,
        max_workspace,
        std::ptr::null_mut(),
    )
}

/// The device facts of `stream`'s device (NULL: the current context's).
pub fn device_spec(stream: *mut c_void) -> Result<DeviceSpec> {
    Ok(driver::enter(stream)?.device.spec)
}

/// Runs `problem` on `stream` (a CUstream; NULL = the legacy default stream of the current
/// context). `algo == None` lets deepgemm choose (`plan::choose_for_call`, which may pack A or
/// B into the workspace); otherwise `algo` (a `deepgemmLtMatmulAlgo_t`'s words, pointers and
/// workspace already checked by the API layer) must decode to one of the problem's candidates on
/// the stream's device, and exactly that plan runs. Both go through the plan cache
/// (`plan::cache::for_call`), and the stream's context is resolved once, here. A plan that packs
/// enqueues the pack kernel(s) first, then the GEMM on the copies, all on `stream`.
/// Asynchronous like cuBLASLt: returns once the work is enqueued. `handle_device`: the device
/// of the caller's handle; a stream on another device is INVALID_VALUE
/// (`driver::same_device`); None skips the check (the LD_PRELOAD library, whose caller's
/// handle is cuBLAS's). `sm_target`: the SMs the call may use (cuBLASLt's SM_COUNT_TARGET,
/// cublasSetSmCountTarget; 0: all), planned for as a device of that many
/// (`DeviceSpec::with_sm_target`); autotuning is left out then.
#[allow(clippy::too_many_arguments)]
pub fn run(
    problem: &GemmProblem,
    ptrs: &GemmPointers,
    algo: Option<&[u64; 8]>,
    stream: *mut c_void,
    workspace: u64,
    workspace_size: u64,
    handle_device: Option<i32>,
    sm_target: u32,
) -> Result<()> {
    run_accepted(
        problem,
        ptrs,
        algo,
        stream,
        workspace,
        workspace_size,
        handle_device,
        sm_target,
        |_| true,
    )
    .map(|_| ())
}

/// `run`, asking `accept` about the plan it chose before checking or enqueuing anything:
/// false returns Ok(false) with the stream untouched, true runs it (Ok(true)). For a caller
/// that decides by the plan (the LD_PRELOAD library leaves problems that would run the
/// portable kernel to cuBLAS) with one context resolution and one plan-cache lookup, and the
/// very plan that runs (the tuned one under autotuning).
#[allow(clippy::too_many_arguments)]
pub fn run_accepted(
    problem: &GemmProblem,
    ptrs: &GemmPointers,
    algo: Option<&[u64; 8]>,
    stream: *mut c_void,
    workspace: u64,
    workspace_size: u64,
    handle_device: Option<i32>,
    sm_target: u32,
    accept: impl FnOnce(&Plan) -> bool,
) -> Result<bool> {
    let ctx = driver::enter(stream)?;
    if let Some(dev) = handle_device {
        driver::same_device(dev, ctx.device.ordinal)?;
    }
    // The device as the call may use it: every plan below is for these SMs.
    let spec = ctx.device.spec.with_sm_target(sm_target);
    let plan = match algo {
        None if plan::tuned::enabled() && !spec.partial => {
            // The tuned winner among the plans these pointers and this workspace allow.
            let misaligned = plan::pack::pointer_misfits(ptrs);
            let plans: Vec<Plan> = plan::cache::candidates_for(problem, &spec, misaligned)?
                .plans()
                .iter()
                .filter(|c| c.workspace <= workspace_size && c.accepts(problem, ptrs))
                .copied()
                .collect();
            let name = autotune::tuned_name(
                &ctx,
                problem,
                &plans,
                misaligned,
                workspace_size,
                stream.cast(),
            );
            match plans.iter().find(|p| Some(p.name()) == name) {
                Some(p) => *p,
                None => plan::cache::for_call(problem, &spec, ptrs, None, workspace_size)?,
            }
        }
        _ => plan::cache::for_call(problem, &spec, ptrs, algo, workspace_size)?,
    };
    if !accept(&plan) {
        return Ok(false);
    }
    if plan.workspace > workspace_size {
        return Err(invalid!(
            "{} needs {} bytes of workspace, {workspace_size} given",
            plan.name(),
            plan.workspace
        ));
    }
    if plan.workspace > 0 && (workspace == 0 || workspace % 256 != 0) {
        return Err(invalid!(
            "{} needs a 256-byte aligned workspace, got {workspace:#x}",
            plan.name()
        ));
    }
    if problem.is_empty() {
        return Ok(true);
    }
    let logging = crate::log::enabled(crate::log::Level::Hints);
    if logging {
        log_choice(problem, ptrs, &plan, &spec, workspace_size);
    }
    // Everything that can fail on the host (planning blocks, compiling, loading, encoding
    // tensor maps) happens before the first launch, so an error never leaves half a GEMM on
    // the stream.
    let mut work = Vec::new();
    if plan.is_slabbed() {
        // One block after another, each with its own plan within the slab plan's workspace;
        // stream order keeps a block's packed copies until its GEMM has read them.
        for (m0, mc, n0, nc) in plan::slab::blocks(problem, plan.slabs) {
            let block = problem.block(m0, mc, n0, nc);
            let block_ptrs = ptrs.block(problem, m0, n0);
            let dev = &spec;
            let block_plan = plan::slab::block_plan(&block, dev, &block_ptrs, plan.workspace)?;
            if logging {
                log_choice(&block, &block_ptrs, &block_plan, dev, plan.workspace);
            }
            work.push(prepare(
                &ctx,
                &spec,
                &block,
                &block_ptrs,
                &block_plan,
                workspace,
            )?);
        }
    } else {
        work.push(prepare(&ctx, &spec, problem, ptrs, &plan, workspace)?);
    }
    if work.len() > 1 {
        let packs: Vec<Vec<PackParams>> = work
            .iter()
            .map(|w| w.packs.iter().map(|l| l.params).collect())
            .collect();
        for (w, keep) in work.iter_mut().zip(repeated_copies(&packs)) {
            let mut keep = keep.into_iter();
            w.packs.retain(|_| keep.next().unwrap_or(true));
        }
    }
    // Once a launch that writes D is enqueued, a later failure leaves D partly written: said
    // so (`Error::PartlyDone`), since C (often D itself) may no longer be the caller's.
    // A panic between launches counts the same (the LD_PRELOAD library would otherwise
    // forward the call to cuBLAS, which would read a C already overwritten): a review.
    let mut d_written = false;
    let enqueued = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        work.iter_mut()
            .try_for_each(|w| w.enqueue(stream, &mut d_written))
    }));
    let e = match enqueued {
        Ok(Ok(())) => return Ok(true),
        Ok(Err(e)) => e,
        Err(payload) if d_written => {
            // Dropping a panic payload may itself panic: leak it.
            std::mem::forget(payload);
            Error::Internal("a panic between launches".into())
        }
        Err(payload) => std::panic::resume_unwind(payload),
    };
    Err(if d_written {
        Error::PartlyDone(format!(
            "{e} (after launches that wrote part of D: D is not C + the product)"
        ))
    } else {
        e
    })
}

/// Which copies of each block (`packs[block]`) to make: not one the block before made with
/// the same parameters, which is still in the workspace. Within a block the copies, the
/// Stream-K fixup's space and D's copy lie apart (`plan::pack::spec` lays them out one after
/// another), so nothing in that block wrote over it; a block further back may have. Blocks
/// run row slab by row slab, so a row slab's rows of A are copied once, not once per block.
/// The parameters also tell the copy's kind: a transposing copy's `segments` is 0, a plain
/// one's at least 1 (`PackParams::new`), so equal parameters are the same copy.
fn repeated_copies(packs: &[Vec<PackParams>]) -> Vec<Vec<bool>> {
    let none = Vec::new();
    packs
        .iter()
        .enumerate()
        .map(|(i, mine)| {
            let before = if i == 0 { &none } else { &packs[i - 1] };
            mine.iter().map(|p| !before.contains(p)).collect()
        })
        .collect()
}

/// A plan's launches for one problem, ready to enqueue: the packs, the GEMM, the copy of D
/// back from its aligned buffer.
struct Prepared {
    packs: Vec<PackLaunch>,
    main: MainLaunch,
    unpack: Option<PackLaunch>,
    /// Launches may start under their predecessor (programmatic dependent launch): not on a
    /// share of the SMs (`DeviceSpec::partial`), whose other SMs the caller's other work holds.
    overlap: bool,
}

enum MainLaunch {
    Portable {
        kernel: std::sync::Arc<registry::Loaded>,
        params: GemmParams,
        grid: [u32; 3],
        block: u32,
        /// Dynamic shared memory (the skinny kernel's ring; 0 for the portable kernels).
        smem: u32,
    },
    Sm90 {
        kernel: std::sync::Arc<registry::Loaded>,
        variant: sm90::Sm90Variant,
        grid: u32,
        args: Box<Sm90Args>,
    },
}

/// Compiles or loads `plan`'s kernels and builds their parameters for `problem` (not empty).
fn prepare(
    ctx: &driver::ContextGuard,
    spec: &DeviceSpec,
    problem: &GemmProblem,
    ptrs: &GemmPointers,
    plan: &Plan,
    workspace: u64,
) -> Result<Prepared> {
    // A swapped plan's kernel, packing and workspace are all for the transposed problem.
    let (problem, ptrs) = plan.oriented(problem, ptrs);
    let packs = match &plan.pack {
        Some(packing) => pack_launches(ctx, spec, &problem, packing, &ptrs, workspace)?,
        None => Vec::new(),
    };
    // D computed into its aligned copy is copied into the caller's D last.
    let unpack = match plan.pack.as_ref().and_then(|s| s.d) {
        Some(d) => Some(copy_launch(
            ctx,
            spec,
            &d,
            PackParams::unpack,
            workspace.wrapping_add(d.offset),
            ptrs.d,
        )?),
        None => None,
    };
    let (problem, ptrs) = plan.on_copies(&problem, &ptrs, workspace);
    let kernel = registry::get(ctx, &plan.kernel)?;
    let main = match plan.kernel {
        Kernel::Portable(_) => MainLaunch::Portable {
            kernel,
            params: GemmParams::new(&problem, &ptrs),
            grid: plan.grid,
            block: plan.block,
            smem: 0,
        },
        Kernel::Skinny(v) => MainLaunch::Portable {
            kernel,
            params: crate::jit::skinny::params(&problem, &ptrs),
            grid: plan.grid,
            block: plan.block,
            smem: v.smem_bytes(),
        },
        Kernel::Sm90(v) => {
            let padded_d = plan.pack.is_some_and(|s| s.d.is_some());
            let mut args = Sm90Args::new_with(
                &v,
                &problem,
                &ptrs,
                sm90::group_m_for(&v, &problem),
                padded_d,
            )?;
            // The Stream-K fixup's flags and partials follow the packed copies: whatever the
            // plan's workspace holds beyond them is the fixup's.
            let pack_bytes = plan.pack.as_ref().map_or(0, |s| s.workspace_bytes());
            args.params
                .set_decomposition(&plan.decomposition, workspace + pack_bytes);
            MainLaunch::Sm90 {
                kernel,
                variant: v,
                grid: plan.grid[0],
                args: Box::new(args),
            }
        }
        Kernel::Pack(_) => return Err(invalid!("{} is not a GEMM kernel", plan.name())),
    };
    Ok(Prepared {
        packs,
        main,
        unpack,
        overlap: !spec.partial,
    })
}

impl Prepared {
    /// Enqueues the launches; `d_written` is set once one that writes the caller's D (the
    /// GEMM, or the copy of D back) is enqueued.
    fn enqueue(&mut self, stream: *mut c_void, d_written: &mut bool) -> Result<()> {
        // The copies around a Hopper GEMM launch programmatically too (the pack kernel waits
        // for its predecessor on sm_90+, kernels/pack/pack.cuh): each boundary's launch gap
        // and prologue pass under the kernel before.
        let pdl = matches!(self.main, MainLaunch::Sm90 { .. }) && self.overlap;
        // Unless `DEEPGEMM_PACK_OVERLAP=0`, every copy after the first (B's after A's, C's)
        // waits for the one before only at its end: they read the caller's operands, which the
        // first copy's wait has already ordered after the call's predecessor, and write
        // disjoint parts of the workspace (kernels/pack/pack.cuh `overlap`).
        let together = pdl && pack_overlap();
        for (i, launch) in self.packs.iter_mut().enumerate() {
            launch.params.overlap = i64::from(together && i > 0);
            launch.enqueue(stream, pdl)?;
        }
        match &mut self.main {
            MainLaunch::Portable {
                kernel,
                params,
                grid,
                block,
                smem,
            } => {
                let mut args = [(params as *mut GemmParams).cast::<c_void>()];
                // SAFETY: the function expects exactly one `GemmParams` by value (params.rs);
                // the context of `stream` is current; grid and block come from the plan; the
                // dynamic smem is the variant's, which the registry opted it into.
                let r = unsafe {
                    sys::cuLaunchKernel(
                        kernel.launchable(),
                        grid[0],
                        grid[1],
                        grid[2],
                        *block,
                        1,
                        1,
                        *smem,
                        stream as CUstream,
                        args.as_mut_ptr(),
                        std::ptr::null_mut(),
                    )
                };
                driver::check(r, &format!("launching {}", kernel.name))?;
                *d_written = true;
            }
            MainLaunch::Sm90 {
                kernel,
                variant,
                grid,
                args,
            } => {
                // The Stream-K flags need no clearing: the launch tags them with a fresh epoch
                // (`Sm90Params::set_decomposition`) and the kernel clears the ones it used.
                // SAFETY: the registry loaded `variant` and opted it into its dynamic shared
                // memory on this device; the context of `stream` is current; `args` lives
                // until the call returns (cuLaunchKernel copies the parameters). Packed
                // operands live in the caller's workspace, written by the pack kernels
                // enqueued just before on the same stream.
                unsafe {
                    tensor_map::launch(
                        kernel.launchable(),
                        variant,
                        *grid,
                        stream as CUstream,
                        args,
                        pdl,
                    )
                }?;
                // (Into D's aligned copy where there is one: the caller's D then only once the
                // copy back below is enqueued.)
                *d_written |= self.unpack.is_none();
                if trace::enabled() {
                    // SAFETY: the stream just launched on, in the current context.
                    unsafe { trace::dump(kernel, stream as CUstream, *grid) }?;
                }
            }
        }
        if let Some(launch) = &mut self.unpack {
            launch.enqueue(stream, pdl)?;
            *d_written = true;
        }
        Ok(())
    }
}

/// One pack kernel launch, ready to enqueue.
struct PackLaunch {
    kernel: std::sync::Arc<registry::Loaded>,
    params: PackParams,
    grid: u32,
    block: u32,
}

impl PackLaunch {
    fn enqueue(&mut self, stream: *mut c_void, pdl: bool) -> Result<()> {
        let mut args = [(&mut self.params as *mut PackParams).cast::<c_void>()];
        // SAFETY: the pack entry takes exactly one `PackParams` by value (jit/pack.rs); the
        // kernel was loaded for the current context's device; `src` and `dst` are device
        // addresses of the caller's operand and workspace, whose extents `plan::pack` computed
        // from the validated problem (the workspace holds `spec.workspace_bytes()`); with
        // `pdl` the kernel waits for its predecessor before touching them.
        unsafe {
            tensor_map::launch_plain(
                self.kernel.launchable(),
                self.grid,
                self.block,
                stream as CUstream,
                args.as_mut_ptr(),
                pdl,
                &self.kernel.name,
            )
        }
    }
}

/// A call's copies after its first run alongside it (`Prepared::enqueue`); `DEEPGEMM_PACK_OVERLAP=0`
/// makes each wait for the one before, as before session 64. Measured (session 64, `64a`, H100):
/// gpu_pack's every packing case and the dependent-call chains pass under it; 16 packed shapes
/// 0.911 of the time (470x266x3399 28.9 -> 24.6 us, 317x190x301 14.4 -> 12.5; 4095³ / 4097³ /
/// 4100³ 0.98-0.99; 99³ 1.008). Read once per process.
fn pack_overlap() -> bool {
    static ON: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
        !std::env::var("DEEPGEMM_PACK_OVERLAP").is_ok_and(|v| v.trim() == "0")
    });
    *ON
}

/// The pack kernel launches of `spec`: each packed operand copied from the caller's pointer to
/// its place in the workspace at `workspace`.
fn pack_launches(
    ctx: &driver::ContextGuard,
    dev: &DeviceSpec,
    problem: &GemmProblem,
    spec: &pack::PackSpec,
    ptrs: &GemmPointers,
    workspace: u64,
) -> Result<Vec<PackLaunch>> {
    if workspace == 0 || workspace % pack::PACK_BASE_ALIGN != 0 {
        return Err(invalid!(
            "packing needs a {}-byte aligned workspace, {workspace:#x} given",
            pack::PACK_BASE_ALIGN
        ));
    }
    let mut launches: Vec<PackLaunch> = spec
        .operands()
        .map(|(op, o)| {
            let src = match op {
                pack::Operand::A => ptrs.a,
                pack::Operand::B => ptrs.b,
            };
            copy_launch(
                ctx,
                dev,
                &o,
                PackParams::new,
                src,
                workspace.wrapping_add(o.offset),
            )
        })
        .collect::<Result<_>>()?;
    // D goes through an aligned copy: when the kernel reads C (beta not known to be 0), C is
    // copied into that buffer first (C may alias D: it is read before anything is written).
    if let Some(d) = spec.d {
        if ptrs.beta != crate::problem::Scalar::Host(0.0) && ptrs.c != 0 {
            let c = pack::c_into_d_copy(problem, &d);
            launches.push(copy_launch(
                ctx,
                dev,
                &c,
                PackParams::new,
                ptrs.c,
                workspace.wrapping_add(d.offset),
            )?);
        }
    }
    Ok(launches)
}

/// One copy between a caller's matrix and its workspace copy `o` (`PackParams::new` packs,
/// `PackParams::unpack` copies back).
fn copy_launch(
    ctx: &driver::ContextGuard,
    dev: &DeviceSpec,
    o: &pack::PackedOperand,
    params: fn(&pack::PackVariant, &pack::PackedOperand, u64, u64) -> PackParams,
    src: u64,
    dst: u64,
) -> Result<PackLaunch> {
    let v = pack::PackVariant::for_operand(o).ok_or_else(|| {
        unsupported!(
            "no pack kernel for {}-byte elements (transposed: {})",
            o.elem_bytes,
            o.transposed
        )
    })?;
    Ok(PackLaunch {
        kernel: registry::get(ctx, &Kernel::Pack(v))?,
        params: params(&v, o, src, dst),
        grid: v.grid(o, dev),
        block: v.threads,
    })
}

/// DEEPGEMM_LOG_LEVEL >= 3: which kernel runs and why: what was packed and why, or, when it
/// is not the Hopper main-tile kernel on a Hopper device, why not.
fn log_choice(
    p: &GemmProblem,
    ptrs: &GemmPointers,
    plan: &Plan,
    dev: &DeviceSpec,
    workspace_size: u64,
) {
    let why = match (plan.kernel, &plan.pack) {
        (Kernel::Sm90(_), _) if plan.is_slabbed() => format!(
            "in {} blocks of D, each packing its own rows of A and columns of B: the whole \
             copies need more than the {workspace_size} bytes of workspace given; each block's \
             plan follows",
            plan::slab::blocks(p, plan.slabs).len()
        ),
        (Kernel::Sm90(_), Some(spec)) if plan.swap => {
            // The copies are the transposed problem's: its A is the caller's B.
            let (t, tptrs) = plan.oriented(p, ptrs);
            format!(
                "main-tile kernel on the transposed problem (A and B trade places), {}",
                pack::describe(&t, &tptrs, spec)
            )
        }
        (Kernel::Sm90(_), Some(spec)) => {
            format!("main-tile kernel, {}", pack::describe(p, ptrs, spec))
        }
        (Kernel::Sm90(_), None) if plan.swap => {
            "main-tile kernel on the transposed problem (a small m becomes the narrow tiles' n, \
             the tiles quantise it better, or only its layout has one: tf32 TT is NN transposed)"
                .to_string()
        }
        (Kernel::Sm90(_), None) => "main-tile kernel".to_string(),
        (Kernel::Portable(_), _) if plan::portable_only() => "DEEPGEMM_KERNELS=portable".into(),
        (Kernel::Portable(_), _) if p.pointer_arrays => {
            "arrays of matrix pointers (GemmBatchedEx): only the portable kernel reads them".into()
        }
        (Kernel::Portable(_), _) => {
            let direct = plan::hopper(p, dev);
            let reason = match &direct {
                Err(reason) => reason.clone(),
                Ok(_) => "A or B is not 16-byte aligned (TMA)".into(),
            };
            match pack::hopper_packed(p, dev, pack::pointer_misfits(ptrs)) {
                Ok(h) if h.workspace > workspace_size => format!(
                    "{reason}; packing would need {} bytes of workspace, {workspace_size} given",
                    h.workspace
                ),
                Ok(h) => match h.pack {
                    Some(s) if !pack::pays(p, &s) => {
                        let e = pack::estimate(p, &s);
                        format!(
                            "{reason}; too small for packing to pay (model: {:.1} us pack + \
                             {:.1} us vs {:.1} us portable)",
                            e.pack_s * 1e6,
                            e.hopper_s * 1e6,
                            e.portable_s * 1e6
                        )
                    }
                    _ => format!("{reason}; the caller's algo chose the portable kernel"),
                },
                Err(_) => reason,
            }
        }
        (Kernel::Pack(_), _) => "not a GEMM kernel".into(),
        (Kernel::Skinny(_), _) if plan.swap => {
            "skinny kernel on the transposed problem (m at most 16: decode)".into()
        }
        (Kernel::Skinny(_), _) => "skinny kernel (n at most 16: decode)".into(),
    };
    // A share of the SMs: SM_COUNT_TARGET, or a green context's partition.
    let share = if dev.partial {
        format!("; planned for {} SMs", dev.sm_count)
    } else {
        String::new()
    };
    crate::log::hint(
        "deepgemmLtMatmul",
        format!(
            "{}x{}x{} batch {}: {} ({why}{share})",
            p.m,
            p.n,
            p.k,
            p.batch,
            plan.name()
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_the_block_before_made_is_not_made_again() {
        let copy = |src: u64, dst: u64| PackParams {
            src,
            dst,
            inner: 4097,
            outer: 1408,
            batch: 1,
            src_ld: 4097,
            dst_ld: 4160,
            ..Default::default()
        };
        let (a0, a1) = (copy(0x1000, 0), copy(0x2000, 0));
        let (b0, b1) = (copy(0x5000, 0x800), copy(0x6000, 0x800));
        // Row slab 0: A0 with B0 then B1; row slab 1: A1 with B0, B1; a block that copies
        // nothing; then A1 again (its copy was not the previous block's).
        let packs = vec![
            vec![a0, b0],
            vec![a0, b1],
            vec![a1, b0],
            vec![a1, b1],
            vec![],
            vec![a1, b1],
        ];
        assert_eq!(
            repeated_copies(&packs),
            vec![
                vec![true, true],
                vec![false, true],
                vec![true, true],
                vec![false, true],
                vec![],
                vec![true, true],
            ]
        );
    }
}
