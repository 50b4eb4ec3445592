//! Phase traces of the sm90 kernel, for locating fixed costs on the GPU: with
//! `DEEPGEMM_NVRTC_DEFINES=DG_TRACE` the kernels are built with kernels/sm90/trace.cuh's marks,
//! and after every launch of one the stream is synchronised and the first and last CTA's
//! marks are printed to stderr, one line per CTA and role:
//!   dg_trace NAME cta I/GRID ROLE start_ns T clk M1 M2 ... M11 ns N
//! (clocks since the thread's mark 0, the kernel's entry; N: globaltimer nanoseconds from
//! mark 0 to the store, which with the clocks gives the SM clock rate). What the marks are:
//! kernels/sm90/gemm.cuh. A developer tool: the
//! synchronisation makes the traced calls blocking.

use std::ffi::CString;

use cudarc::driver::sys::{self, CUdeviceptr, CUstream};
use once_cell::sync::Lazy;

use super::driver::check;
use super::registry::Loaded;
use crate::error::Result;

/// True when the sm90 kernels are built with DG_TRACE.
pub fn enabled() -> bool {
    static ON: Lazy<bool> =
        Lazy::new(|| crate::jit::sm90::defines().iter().any(|d| d == "DG_TRACE"));
    *ON
}

/// kernels/sm90/trace.cuh `dg_trace[2][2][14]`: per traced CTA (first, last) and role
/// (producer, consumer 0), the CTA index, the entry's globaltimer, marks 1..11, the ns to the
/// store.
const CTAS: usize = 2;
const ROLES: usize = 2;
const ROLE_SLOTS: usize = 14;
const MARKS: std::ops::Range<usize> = 2..ROLE_SLOTS - 1;

/// Waits for `stream` and prints `kernel`'s trace buffer (`dg_trace`), then clears it.
///
/// # Safety
/// `stream` must belong to the current context (or be NULL / a special handle), as for the
/// launch it follows.
pub unsafe fn dump(kernel: &Loaded, stream: CUstream, grid: u32) -> Result<()> {
    const SLOTS: usize = CTAS * ROLES * ROLE_SLOTS;
    // SAFETY: the caller's contract.
    check(
        unsafe { sys::cuStreamSynchronize(stream) },
        "cuStreamSynchronize",
    )?;
    let name = CString::new("dg_trace").expect("no NUL");
    let (mut ptr, mut bytes): (CUdeviceptr, usize) = (0, 0);
    // SAFETY: out-pointers valid; the library is live (the registry never unloads).
    check(
        unsafe { sys::cuLibraryGetGlobal(&mut ptr, &mut bytes, kernel.library, name.as_ptr()) },
        "cuLibraryGetGlobal(dg_trace)",
    )?;
    let mut buf = [0i64; SLOTS];
    if bytes < std::mem::size_of_val(&buf) {
        return Ok(());
    }
    // SAFETY: `ptr` holds at least `bytes` >= size_of(buf) bytes of device memory.
    check(
        unsafe { sys::cuMemcpyDtoH_v2(buf.as_mut_ptr().cast(), ptr, std::mem::size_of_val(&buf)) },
        "cuMemcpyDtoH(dg_trace)",
    )?;
    for (slot, cta) in buf.chunks(ROLES * ROLE_SLOTS).enumerate() {
        if slot == 1 && grid <= 1 {
            break;
        }
        for (role, r) in ["producer", "consumer"].iter().zip(cta.chunks(ROLE_SLOTS)) {
            let marks: Vec<String> = r[MARKS].iter().map(|m| m.to_string()).collect();
            eprintln!(
                "dg_trace {} cta {}/{grid} {role} start_ns {} clk {} ns {}",
                kernel.name,
                r[0],
                r[1],
                marks.join(" "),
                r[ROLE_SLOTS - 1]
            );
        }
    }
    let zeros = [0i64; SLOTS];
    // SAFETY: as above, same size.
    check(
        unsafe { sys::cuMemcpyHtoD_v2(ptr, zeros.as_ptr().cast(), std::mem::size_of_val(&zeros)) },
        "cuMemcpyHtoD(dg_trace)",
    )
}
