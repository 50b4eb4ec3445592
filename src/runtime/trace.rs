//! Phase traces of the sm90 kernel, for locating fixed costs on the GPU: with
//! `DEEPGEMM_NVRTC_DEFINES=DG_TRACE` the kernels are built with kernels/sm90/trace.cuh's marks,
//! and after every launch of one the stream is synchronised and the first and last CTA's
//! marks are printed to stderr, one line per CTA and role:
//!   dg_trace NAME cta I/GRID ROLE start_ns T clk M1 M2 ... M11 ns N
//! (clocks since the thread's mark 0, the kernel's entry; N: globaltimer nanoseconds from
//! mark 0 to the store, which with the clocks gives the SM clock rate), then one line with every
//! CTA's span (`dg_span`: `span_summary`). What the marks are:
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
    let mut buf = [0i64; SLOTS];
    // SAFETY: the launch that wrote it is complete (synchronised above).
    if unsafe { take_global(kernel, "dg_trace", true, &mut buf) }? {
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
    }
    // kernels/sm90/trace.cuh `dg_trace_span[1024][2]`: every CTA's entry and end (globaltimer
    // ns); absent from kernels built before it existed.
    let mut spans = vec![0u64; 1024 * 2];
    // SAFETY: as above.
    if unsafe { take_global(kernel, "dg_trace_span", false, &mut spans) }?
        && let Some(line) = span_summary(&spans, grid)
    {
        eprintln!("dg_span {} {line}", kernel.name);
    }
    // kernels/sm90/trace.cuh `dg_trace_epi[2][16]`: CTA 0's first TMA-store epilogue per
    // consumer, clocks after its entry (absent from kernels built before it existed).
    let mut epi = [0u64; 2 * 16];
    // SAFETY: as above.
    if unsafe { take_global(kernel, "dg_trace_epi", false, &mut epi) }? {
        for (c, e) in epi.chunks(16).enumerate() {
            if let Some(line) = epi_line(e) {
                eprintln!("dg_epi {} consumer {c} {line}", kernel.name);
            }
        }
    }
    Ok(())
}

/// One consumer's `dg_trace_epi` row as the `dg_epi` line: per 64-column box, the clocks after
/// its buffer wait, its stmatrix + fence and its store's issue, counted from the epilogue's
/// entry; None where the epilogue was not traced (a zero entry).
fn epi_line(e: &[u64]) -> Option<String> {
    let (&entry, rest) = e.split_first()?;
    if entry == 0 {
        return None;
    }
    let boxes: Vec<String> = rest
        .chunks(3)
        .take_while(|b| b.iter().any(|&t| t != 0))
        .map(|b| {
            b.iter()
                .map(|&t| {
                    if t == 0 {
                        "-".to_string()
                    } else {
                        t.wrapping_sub(entry).to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join("/")
        })
        .collect();
    Some(format!("wait/fenced/issued {}", boxes.join(" ")))
}

/// Copies `kernel`'s module global `name` into `buf` and zeroes it there, so the next traced
/// launch starts clean. Ok(false), nothing copied, where the global is smaller than `buf`, or
/// missing and not `required` (an error where it is).
///
/// # Safety
/// The launch that wrote the global must be complete; `T` a plain integer type.
unsafe fn take_global<T: Copy + Default>(
    kernel: &Loaded,
    name: &str,
    required: bool,
    buf: &mut [T],
) -> Result<bool> {
    let cname = CString::new(name).expect("no NUL");
    let (mut ptr, mut bytes): (CUdeviceptr, usize) = (0, 0);
    // SAFETY: out-pointers valid; the library is live (the registry never unloads).
    let found =
        unsafe { sys::cuLibraryGetGlobal(&mut ptr, &mut bytes, kernel.library, cname.as_ptr()) };
    if required {
        check(found, &format!("cuLibraryGetGlobal({name})"))?;
    }
    let len = std::mem::size_of_val(buf);
    if found != sys::CUresult::CUDA_SUCCESS || bytes < len {
        return Ok(false);
    }
    // SAFETY: `ptr` holds at least `bytes` >= `len` bytes of device memory.
    check(
        unsafe { sys::cuMemcpyDtoH_v2(buf.as_mut_ptr().cast(), ptr, len) },
        &format!("cuMemcpyDtoH({name})"),
    )?;
    let zeros = vec![T::default(); buf.len()];
    // SAFETY: as above, same size.
    check(
        unsafe { sys::cuMemcpyHtoD_v2(ptr, zeros.as_ptr().cast(), len) },
        &format!("cuMemcpyHtoD({name})"),
    )?;
    Ok(true)
}

/// The `dg_span` line `dump` prints for `spans` ([entry, end] ns pairs, CTA order) of a launch of
/// `grid` CTAs: CTAs that recorded nothing are skipped; None when none did.
fn span_summary(spans: &[u64], grid: u32) -> Option<String> {
    let n = (grid as usize).min(spans.len() / 2);
    let ctas: Vec<(usize, u64, u64)> = (0..n)
        .map(|c| (c, spans[2 * c], spans[2 * c + 1]))
        .filter(|&(_, entry, end)| entry != 0 && end >= entry)
        .collect();
    let t0 = ctas.iter().map(|c| c.1).min()?;
    let us = |t: u64| (t - t0) as f64 / 1e3;
    let last_entry = ctas.iter().map(|c| c.1).max()?;
    let mut ends: Vec<(usize, u64)> = ctas.iter().map(|c| (c.0, c.2)).collect();
    ends.sort_by_key(|e| e.1);
    let latest: Vec<String> = ends
        .iter()
        .rev()
        .take(5)
        .map(|&(c, t)| format!("{c}:{:.2}", us(t)))
        .collect();
    Some(format!(
        "grid {grid} ({} kept) entry_us {:.2} end_us {:.2} {:.2} {:.2} latest {}",
        ctas.len(),
        us(last_entry),
        us(ends[0].1),
        us(ends[ends.len() / 2].1),
        us(ends[ends.len() - 1].1),
        latest.join(" ")
    ))
}

#[cfg(test)]
mod tests {
    use super::{epi_line, span_summary};

    #[test]
    fn epi_line_counts_each_box_from_the_entry() {
        let mut e = [0u64; 16];
        assert_eq!(epi_line(&e), None);
        e[..7].copy_from_slice(&[1000, 1100, 1300, 1400, 1500, 1700, 1800]);
        assert_eq!(
            epi_line(&e).as_deref(),
            Some("wait/fenced/issued 100/300/400 500/700/800")
        );
    }

    #[test]
    fn span_summary_spreads_from_the_earliest_entry() {
        // CTA 1 enters 1 us after CTA 0 and ends last; CTA 2 recorded nothing.
        let spans = [1_000, 5_000, 2_000, 9_500, 0, 0];
        assert_eq!(
            span_summary(&spans, 3).unwrap(),
            "grid 3 (2 kept) entry_us 1.00 end_us 4.00 8.50 8.50 latest 1:8.50 0:4.00"
        );
        assert_eq!(span_summary(&[0, 0], 1), None);
    }
}
