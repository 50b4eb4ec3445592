//! One interposed call: substitute it with deepgemm or forward it, count which, log it.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};

use deepgemm::problem::GemmProblem;

use crate::config::{self, LogMode};
use crate::decide::Forward;
use crate::real::Status;
use crate::stats::{self, Entry, Reason};

pub const STATUS_SUCCESS: Status = 0;
pub const STATUS_NOT_INITIALIZED: Status = 1;
pub const STATUS_EXECUTION_FAILED: Status = 13;

thread_local! {
    /// How many forwarded calls this thread is inside. The real cuBLAS may call cuBLASLt
    /// through its exported symbols, which LD_PRELOAD routes to us: such inner calls are
    /// forwarded without a decision so that one GEMM is counted (and decided) once.
    /// `const`, no destructor: reading it never allocates and never fails.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

fn depth() -> u32 {
    DEPTH.try_with(Cell::get).unwrap_or(0)
}

fn forward_guarded<F: FnOnce() -> Status>(forward: F) -> Status {
    let _ = DEPTH.try_with(|d| d.set(d.get().saturating_add(1)));
    let st = forward();
    let _ = DEPTH.try_with(|d| d.set(d.get().saturating_sub(1)));
    st
}

/// Runs `substitute` (which, on success, has enqueued the GEMM through deepgemm) unless
/// substitution is off or this is a nested call; on any doubt, `forward` (the real function
/// with the caller's arguments, untouched). `describe` renders the call for the per-call
/// log and is only evaluated when that log is on.
pub fn dispatch<S, D, F>(entry: Entry, substitute: S, describe: D, forward: F) -> Status
where
    S: FnOnce() -> Result<GemmProblem, Forward>,
    D: FnOnce() -> String,
    F: FnOnce() -> Status,
{
    let cfg = config::get();
    let early = if depth() > 0 {
        Some(Reason::Nested)
    } else if !cfg.enabled {
        Some(Reason::Disabled)
    } else {
        None
    };
    if let Some(r) = early {
        stats::count_forwarded(entry, r);
        if cfg.log == LogMode::Calls {
            log_call(entry, describe, &Forward::new(r, "not decided"));
        }
        return forward_guarded(forward);
    }
    // AssertUnwindSafe: `substitute` only reads the caller's arguments and deepgemm's
    // internally synchronised state; after a panic none of it is reused here.
    let decided = match catch_unwind(AssertUnwindSafe(substitute)) {
        Ok(r) => r,
        Err(payload) => {
            // Dropping a panic payload may itself panic: leak it.
            std::mem::forget(payload);
            Err(Forward::new(
                Reason::Panic,
                "panic while deciding or running",
            ))
        }
    };
    match decided {
        Ok(p) => {
            stats::count_substituted(entry);
            if cfg.log == LogMode::Calls {
                log_substituted(entry, &p);
            }
            STATUS_SUCCESS
        }
        Err(f) => {
            stats::count_forwarded(entry, f.reason);
            if cfg.log == LogMode::Calls || f.reason == Reason::Failed {
                log_call(entry, describe, &f);
            }
            if f.reason == Reason::Failed {
                // Part of D is written: running the call again in cuBLAS would read a C that
                // may be D itself. Reported as cuBLAS reports a failed launch.
                return STATUS_EXECUTION_FAILED;
            }
            forward_guarded(forward)
        }
    }
}

fn log_substituted(entry: Entry, p: &GemmProblem) {
    let _ = catch_unwind(|| {
        stats::emit(&format!(
            "deepgemm-preload: {} {} -> deepgemm\n",
            entry.name(),
            crate::decide::problem_text(p)
        ))
    });
}

/// A forwarded call: the decoded operation when the decision got that far, else what the
/// entry point can say from its arguments.
fn log_call<D: FnOnce() -> String>(entry: Entry, describe: D, f: &Forward) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        let what = match &f.problem {
            Some(p) => crate::decide::problem_text(p),
            None => describe(),
        };
        let to = if f.reason == Reason::Failed {
            "EXECUTION_FAILED, not forwarded"
        } else {
            "cuBLAS"
        };
        stats::emit(&format!(
            "deepgemm-preload: {} {what} -> {to} ({f})\n",
            entry.name()
        ))
    }));
}

/// The real function could not be found: nothing to forward to. Said once per entry point
/// whatever the log setting, since the host program is about to see a failure.
pub fn missing(entry: Entry) -> Status {
    use std::sync::atomic::{AtomicBool, Ordering};
    static SAID: [AtomicBool; stats::ENTRIES.len()] =
        [const { AtomicBool::new(false) }; stats::ENTRIES.len()];
    if !SAID[entry as usize].swap(true, Ordering::Relaxed) {
        let _ = catch_unwind(|| {
            stats::emit(&format!(
                "deepgemm-preload: the real {} was not found (dlopen RTLD_NOLOAD, RTLD_NEXT, \
                 dlopen by name); returning CUBLAS_STATUS_NOT_INITIALIZED\n",
                entry.name()
            ))
        });
    }
    STATUS_NOT_INITIALIZED
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A substitution that failed after writing part of D is reported, never run again by
    /// the real library (which would read a C that may be the half-written D).
    #[test]
    fn a_partly_done_call_is_reported_not_forwarded() {
        if !config::get().enabled {
            return;
        }
        let st = dispatch(
            stats::Entry::LtMatmul,
            || Err(Forward::new(Reason::Failed, "launch 2 of 3 failed")),
            String::new,
            || panic!("forwarded"),
        );
        assert_eq!(st, STATUS_EXECUTION_FAILED);
        // Any other refusal is forwarded.
        let st = dispatch(
            stats::Entry::LtMatmul,
            || Err(Forward::new(Reason::Deepgemm, "no GPU")),
            String::new,
            || 7,
        );
        assert_eq!(st, 7);
    }
}
