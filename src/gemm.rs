//! One GEMM call end to end: device of the stream -> plan -> registry -> launch.
//! This is the only module the C boundary calls to run or plan work.

use std::ffi::c_void;

use cudarc::driver::sys::{self, CUstream};

use crate::error::Result;
use crate::jit::params::GemmParams;
use crate::plan::{self, DeviceSpec, Plan};
use crate::problem::{GemmPointers, GemmProblem};
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
    let plans: Vec<Plan> = [plan::choose(problem, &dev.spec)?]
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
    let _ = workspace; // the portable kernels need none
    let ctx = driver::enter(stream)?;
    let plan = match plan {
        Some(p) => *p,
        None => plan::choose(problem, &ctx.device.spec)?,
    };
    if plan.workspace > workspace_size {
        return Err(invalid!(
            "{} needs {} bytes of workspace, {workspace_size} given",
            plan.variant.name(),
            plan.workspace
        ));
    }
    if problem.is_empty() {
        return Ok(());
    }
    let kernel = registry::get(&ctx, &plan.variant)?;
    let mut params = GemmParams::new(problem, ptrs);
    let mut args = [(&mut params as *mut GemmParams).cast::<c_void>()];
    // SAFETY: the function expects exactly one `GemmParams` by value (see params.rs); the
    // context of `stream` is current; grid and block come from the plan, smem is static.
    let r = unsafe {
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
    };
    driver::check(r, &format!("launching {}", kernel.name))
}
