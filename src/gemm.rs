//! One GEMM call end to end: device of the stream -> plan -> registry -> launch.
//! This is the only module the C boundary calls to run or plan work.

use std::ffi::c_void;

use crate::error::{Error, Result};
use crate::plan::Plan;
use crate::problem::{GemmPointers, GemmProblem};

/// Makes sure the driver is loadable, initialised and has at least one device.
/// `Error::NotInitialized` otherwise (never panics, never exits).
pub fn init() -> Result<()> {
    Err(Error::NotInitialized("runtime not built yet".into()))
}

/// Ranked candidate plans for `problem` on the current device (the device of the calling
/// thread's current context), at most `requested`, each needing at most `max_workspace` bytes.
/// `Error::NotSupported` when none fits.
pub fn heuristic(problem: &GemmProblem, max_workspace: u64, requested: usize) -> Result<Vec<Plan>> {
    let _ = (problem, max_workspace, requested);
    Err(Error::NotInitialized("runtime not built yet".into()))
}

/// Runs `problem` on `stream` (a CUstream; NULL = the legacy default stream of the current
/// context). `plan == None` lets deepgemm choose. Asynchronous like cuBLASLt: returns once
/// the work is enqueued.
pub fn run(
    problem: &GemmProblem,
    ptrs: &GemmPointers,
    plan: Option<&Plan>,
    stream: *mut c_void,
    workspace: u64,
    workspace_size: u64,
) -> Result<()> {
    let _ = (problem, ptrs, plan, stream, workspace, workspace_size);
    Err(Error::NotInitialized("runtime not built yet".into()))
}
