//! One GEMM call end to end: device of the stream -> plan -> registry -> launch.
//! This is the only module the C boundary calls to run or plan work.

use std::ffi::c_void;

use cudarc::driver::sys::{self, CUstream};

use crate::error::Result;
use crate::jit::params::GemmParams;
use crate::plan::{self, DeviceSpec, Kernel, Plan, sm90};
use crate::problem::{GemmPointers, GemmProblem};
use crate::runtime::tensor_map::{self, Sm90Args};
use crate::runtime::{driver, registry};
use crate::{invalid, unsupported};

/// Makes sure the driver is loadable, initialised and has at least one device.
/// `Error::NotInitialized` otherwise (never panics, never exits).
pub fn init() -> Result<()> {
    driver::init()
}

/// Ranked candidate plans for `problem` on the current device (the device of the calling
/// thread's current context), at most `requested`, each needing at most `max_workspace` bytes.
/// `Error::NotSupported` when none fits.
pub fn heuristic(problem: &GemmProblem, max_workspace: u64, requested: usize) -> Result<Vec<Plan>> {
    let dev = driver::current_device()?;
    let plans: Vec<Plan> = plan::candidates(problem, &dev.spec)?
        .into_iter()
        .filter(|p| p.workspace <= max_workspace)
        .take(requested)
        .collect();
    if plans.is_empty() {
        return Err(unsupported!(
            "no kernel fits in {max_workspace} bytes of workspace"
        ));
    }
    Ok(plans)
}

/// The device facts of `stream`'s device (NULL: the current context's).
pub fn device_spec(stream: *mut c_void) -> Result<DeviceSpec> {
    Ok(driver::enter(stream)?.device.spec)
}

/// Runs `problem` on `stream` (a CUstream; NULL = the legacy default stream of the current
/// context). `plan == None` lets deepgemm choose; otherwise exactly that plan runs (the API
/// layer decoded it with `Plan::from_algo` and checked pointers and workspace). Asynchronous
/// like cuBLASLt: returns once the work is enqueued.
pub fn run(
    problem: &GemmProblem,
    ptrs: &GemmPointers,
    plan: Option<&Plan>,
    stream: *mut c_void,
    workspace: u64,
    workspace_size: u64,
) -> Result<()> {
    let ctx = driver::enter(stream)?;
    let plan = match plan {
        Some(p) if !p.accepts(ptrs) => {
            return Err(unsupported!(
                "{} needs 16-byte aligned A and B (TMA); choose another algo",
                p.name()
            ));
        }
        Some(p) => *p,
        // The best candidate these pointers and this workspace allow; the portable plan
        // takes any pointers and needs no workspace.
        None => plan::candidates(problem, &ctx.device.spec)?
            .into_iter()
            .find(|c| c.accepts(ptrs) && c.workspace <= workspace_size)
            .expect("the portable plan accepts every pointer"),
    };
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
        return Ok(());
    }
    if crate::log::enabled(crate::log::Level::Hints) {
        log_choice(problem, &plan, &ctx.device.spec);
    }
    let kernel = registry::get(&ctx, &plan.kernel)?;
    let r = match plan.kernel {
        Kernel::Portable(_) => {
            let mut params = GemmParams::new(problem, ptrs);
            let mut args = [(&mut params as *mut GemmParams).cast::<c_void>()];
            // SAFETY: the function expects exactly one `GemmParams` by value (params.rs); the
            // context of `stream` is current; grid and block come from the plan; static smem.
            unsafe {
                sys::cuLaunchKernel(
                    kernel.launchable(),
                    plan.grid[0],
                    plan.grid[1],
                    plan.grid[2],
                    plan.block,
                    1,
                    1,
                    0,
                    stream as CUstream,
                    args.as_mut_ptr(),
                    std::ptr::null_mut(),
                )
            }
        }
        Kernel::Sm90(v) => {
            let mut args = Sm90Args::new(&v, problem, ptrs, sm90::DEFAULT_GROUP_M)?;
            let d = plan.decomposition;
            args.params.set_decomposition(&d, workspace);
            if plan.workspace > 0 {
                // The Stream-K flags start at zero; the partials need no clearing.
                // SAFETY: `workspace` holds `plan.workspace` >= flag_bytes bytes (checked
                // above; the caller's contract for the workspace pointer), 4-byte aligned.
                let r = unsafe {
                    sys::cuMemsetD32Async(
                        workspace,
                        0,
                        (d.flag_bytes() / 4) as usize,
                        stream as CUstream,
                    )
                };
                driver::check(r, "clearing the Stream-K flags")?;
            }
            // SAFETY: the registry loaded variant `v` and opted it into its dynamic shared
            // memory on this device; the context of `stream` is current; `args` lives until
            // the call returns (cuLaunchKernel copies the parameters).
            return unsafe {
                tensor_map::launch(
                    kernel.launchable(),
                    &v,
                    plan.grid[0],
                    stream as CUstream,
                    &mut args,
                )
            };
        }
    };
    driver::check(r, &format!("launching {}", kernel.name))
}

/// DEEPGEMM_LOG_LEVEL >= 3: which kernel runs and, when it is not the Hopper main-tile
/// kernel on a Hopper device, why not.
fn log_choice(p: &GemmProblem, plan: &Plan, dev: &DeviceSpec) {
    let why = match plan.kernel {
        Kernel::Sm90(_) => "main-tile kernel".to_string(),
        Kernel::Portable(_) if plan::portable_only() => "DEEPGEMM_KERNELS=portable".into(),
        Kernel::Portable(_) => match plan::hopper(p, dev) {
            Err(reason) => reason,
            Ok(_) => "A or B is not 16-byte aligned (TMA)".into(),
        },
    };
    crate::log::hint(
        "deepgemmLtMatmul",
        format!(
            "{}x{}x{} batch {}: {} ({why})",
            p.m,
            p.n,
            p.k,
            p.batch,
            plan.name()
        ),
    );
}
