//! Per-entry-point counters (substituted, and forwarded per reason), the log sink, and the
//! summary printed at exit. Counting is one relaxed atomic add: it sits on the forwarded
//! fast path, which must stay as cheap as the call it forwards.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// The exported GEMM entry points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Entry {
    LtMatmul,
    GemmEx,
    GemmStridedBatchedEx,
    GemmBatchedEx,
    Sgemm,
    SgemmStridedBatched,
    Hgemm,
}

pub const ENTRIES: [Entry; 7] = [
    Entry::LtMatmul,
    Entry::GemmEx,
    Entry::GemmStridedBatchedEx,
    Entry::GemmBatchedEx,
    Entry::Sgemm,
    Entry::SgemmStridedBatched,
    Entry::Hgemm,
];

impl Entry {
    /// The C symbol.
    pub fn name(self) -> &'static str {
        match self {
            Entry::LtMatmul => "cublasLtMatmul",
            Entry::GemmEx => "cublasGemmEx",
            Entry::GemmStridedBatchedEx => "cublasGemmStridedBatchedEx",
            Entry::GemmBatchedEx => "cublasGemmBatchedEx",
            Entry::Sgemm => "cublasSgemm_v2",
            Entry::SgemmStridedBatched => "cublasSgemmStridedBatched",
            Entry::Hgemm => "cublasHgemm",
        }
    }
}

/// Why a call went to the real library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Reason {
    /// DEEPGEMM_PRELOAD=0.
    Disabled,
    /// Made by the real cuBLAS while it ran a call we forwarded (cuBLAS calling cuBLASLt):
    /// deciding again would count the same GEMM twice.
    Nested,
    /// cublasGemmBatchedEx: deepgemm has no pointer-array batches.
    PointerArray,
    /// A, B, C, D types deepgemm does not compute (fp8, integers, fp64, complex, mixes).
    DataType,
    /// Compute type, scale type or math mode deepgemm does not honour exactly.
    ComputeType,
    /// Pointer modes other than HOST and DEVICE (alpha vectors).
    PointerMode,
    /// AUX, gradient and other epilogues; unsupported bias types.
    Epilogue,
    /// IMMA orders, planar complex, pointer-array layouts, TRANSC, fill modes.
    Layout,
    /// fp8 scale pointers and modes, amax, aux pointers, atomic sync, emulation, or an SM
    /// count target (a carve-out deepgemm would not respect).
    Attribute,
    /// A descriptor or handle could not be read through the real library.
    Unreadable,
    /// Nothing to compute (m, n or the batch is 0).
    Empty,
    /// Malformed arguments: the real library reports them its own way.
    Invalid,
    /// NULL or misaligned matrix, bias or scalar pointers.
    Pointers,
    /// Workspace NULL with a size, or misaligned.
    Workspace,
    /// deepgemm returned an error (no GPU, NVRTC, launch...).
    Deepgemm,
    /// deepgemm would run its portable (reference) kernel: no Hopper path for these types and
    /// layouts (exact fp32), this workspace or this GPU, and cuBLAS is 2-10x faster
    /// there (`decide::portable`; DEEPGEMM_PRELOAD_PORTABLE=1 substitutes them anyway).
    Portable,
    /// Another request deepgemm does not implement.
    Unsupported,
    /// A panic inside this library (a bug); caught, and the call forwarded.
    Panic,
    /// deepgemm failed after enqueuing launches that wrote part of D (`Error::PartlyDone`):
    /// not forwarded, since cuBLAS would recompute from a C that may be D itself, partly
    /// overwritten; the caller gets EXECUTION_FAILED. Counted with the forwarded calls.
    Failed,
}

pub const REASONS: [Reason; 19] = [
    Reason::Disabled,
    Reason::Nested,
    Reason::PointerArray,
    Reason::DataType,
    Reason::ComputeType,
    Reason::PointerMode,
    Reason::Epilogue,
    Reason::Layout,
    Reason::Attribute,
    Reason::Unreadable,
    Reason::Empty,
    Reason::Invalid,
    Reason::Pointers,
    Reason::Workspace,
    Reason::Deepgemm,
    Reason::Portable,
    Reason::Unsupported,
    Reason::Panic,
    Reason::Failed,
];

impl Reason {
    /// One word, as the summary prints it (`key=count`).
    pub fn key(self) -> &'static str {
        match self {
            Reason::Disabled => "disabled",
            Reason::Nested => "nested",
            Reason::PointerArray => "pointer_array",
            Reason::DataType => "data_type",
            Reason::ComputeType => "compute_type",
            Reason::PointerMode => "pointer_mode",
            Reason::Epilogue => "epilogue",
            Reason::Layout => "layout",
            Reason::Attribute => "attribute",
            Reason::Unreadable => "unreadable",
            Reason::Empty => "empty",
            Reason::Invalid => "invalid",
            Reason::Pointers => "pointers",
            Reason::Workspace => "workspace",
            Reason::Deepgemm => "deepgemm_error",
            Reason::Portable => "portable",
            Reason::Unsupported => "unsupported",
            Reason::Panic => "panic",
            Reason::Failed => "failed_not_forwarded",
        }
    }

    /// A call forwarded for this reason still counts among the "supported types" calls
    /// (the ones the substitution rate is measured on): everything but types and compute
    /// types deepgemm does not have, calls it leaves to cuBLAS by design (its portable
    /// kernel's), and calls that never reached a decision.
    pub fn in_supported_types(self) -> bool {
        !matches!(
            self,
            Reason::Disabled
                | Reason::Nested
                | Reason::DataType
                | Reason::ComputeType
                | Reason::Portable
        )
    }
}

const NE: usize = ENTRIES.len();
const NR: usize = REASONS.len();

#[allow(clippy::declare_interior_mutable_const)]
const ZERO: AtomicU64 = AtomicU64::new(0);
#[allow(clippy::declare_interior_mutable_const)]
const ZERO_ROW: [AtomicU64; NR] = [ZERO; NR];
static SUBSTITUTED: [AtomicU64; NE] = [ZERO; NE];
static FORWARDED: [[AtomicU64; NR]; NE] = [ZERO_ROW; NE];

pub fn count_substituted(e: Entry) {
    SUBSTITUTED[e as usize].fetch_add(1, Ordering::Relaxed);
}

pub fn count_forwarded(e: Entry, r: Reason) {
    FORWARDED[e as usize][r as usize].fetch_add(1, Ordering::Relaxed);
}

/// The counters at one moment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub substituted: [u64; NE],
    pub forwarded: [[u64; NR]; NE],
}

impl Counts {
    pub fn now() -> Counts {
        let mut c = Counts::default();
        for (e, row) in FORWARDED.iter().enumerate() {
            c.substituted[e] = SUBSTITUTED[e].load(Ordering::Relaxed);
            for (r, n) in row.iter().enumerate() {
                c.forwarded[e][r] = n.load(Ordering::Relaxed);
            }
        }
        c
    }

    pub fn total(&self) -> u64 {
        self.substituted.iter().sum::<u64>() + self.forwarded.iter().flatten().sum::<u64>()
    }

    /// The summary: one line per entry point that was called, its forwarding reasons,
    /// and a total with the substitution rate over supported-type calls. Every line starts
    /// with "deepgemm-preload:" and uses key=value pairs, so scripts can parse it.
    pub fn render(&self, enabled: bool) -> String {
        let mut s = format!(
            "deepgemm-preload: summary pid={} substitution={}\n",
            std::process::id(),
            if enabled { "on" } else { "off" }
        );
        let pct = |a: u64, b: u64| {
            if b == 0 {
                0.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        let (mut calls, mut subst, mut supported) = (0, 0, 0);
        for e in ENTRIES {
            let sub = self.substituted[e as usize];
            let fwd: u64 = self.forwarded[e as usize].iter().sum();
            if sub + fwd == 0 {
                continue;
            }
            let sup = sub
                + REASONS
                    .iter()
                    .filter(|r| r.in_supported_types())
                    .map(|r| self.forwarded[e as usize][*r as usize])
                    .sum::<u64>();
            s += &format!(
                "deepgemm-preload: {} calls={} substituted={} forwarded={}",
                e.name(),
                sub + fwd,
                sub,
                fwd
            );
            for r in REASONS {
                let n = self.forwarded[e as usize][r as usize];
                if n > 0 {
                    s += &format!(" {}={}", r.key(), n);
                }
            }
            s.push('\n');
            calls += sub + fwd;
            subst += sub;
            supported += sup;
        }
        s += &format!(
            "deepgemm-preload: total calls={calls} substituted={subst} forwarded={} \
             supported_type_calls={supported} substituted_of_supported={:.1}%\n",
            calls - subst,
            pct(subst, supported)
        );
        s
    }
}

/// Appends `text` to `file` (or writes it to stderr) in one write, so lines from several
/// threads or processes do not interleave mid-line.
pub fn emit_to(file: Option<&Path>, text: &str) {
    let written = file.is_some_and(|f| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(f)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .is_ok()
    });
    if !written {
        let _ = std::io::stderr().write_all(text.as_bytes());
    }
}

pub fn emit(text: &str) {
    emit_to(crate::config::get().log_file.as_deref(), text);
}

/// Registered with atexit by the load-time constructor when a log is asked for. Silent
/// when the process made no GEMM call: LD_PRELOAD reaches every child process (shells,
/// compilers), and a line from each would bury the one that matters.
pub extern "C" fn print_summary() {
    // Nothing may unwind out of an atexit handler.
    let _ = std::panic::catch_unwind(|| {
        let c = Counts::now();
        if c.total() > 0 {
            emit(&c.render(crate::config::get().enabled));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_counts_and_rate() {
        let mut c = Counts::default();
        assert_eq!(c.total(), 0);
        c.substituted[Entry::GemmEx as usize] = 9;
        c.forwarded[Entry::GemmEx as usize][Reason::Epilogue as usize] = 1;
        c.forwarded[Entry::LtMatmul as usize][Reason::DataType as usize] = 5;
        c.forwarded[Entry::Sgemm as usize][Reason::Portable as usize] = 4;
        assert_eq!(c.total(), 19);
        let s = c.render(true);
        assert!(s.contains("substitution=on"), "{s}");
        assert!(
            s.contains(
                "deepgemm-preload: cublasGemmEx calls=10 substituted=9 forwarded=1 epilogue=1\n"
            ),
            "{s}"
        );
        assert!(
            s.contains(
                "deepgemm-preload: cublasLtMatmul calls=5 substituted=0 forwarded=5 data_type=5\n"
            ),
            "{s}"
        );
        assert!(
            s.contains(
                "deepgemm-preload: cublasSgemm_v2 calls=4 substituted=0 forwarded=4 portable=4\n"
            ),
            "{s}"
        );
        // fp8 calls are not "supported types", nor those left to cuBLAS because deepgemm
        // would run its portable kernel: 9 of 10 supported calls were substituted.
        assert!(
            s.contains("total calls=19 substituted=9 forwarded=10 supported_type_calls=10 substituted_of_supported=90.0%"),
            "{s}"
        );
        assert!(
            !s.contains("cublasHgemm"),
            "entries without calls are left out"
        );
    }

    #[test]
    fn keys_are_distinct_words() {
        for (i, a) in REASONS.iter().enumerate() {
            assert_eq!(*a as usize, i, "REASONS is in discriminant order");
            assert!(a.key().chars().all(|c| c.is_ascii_lowercase() || c == '_'));
            for b in &REASONS[i + 1..] {
                assert_ne!(a.key(), b.key());
            }
        }
        for (i, e) in ENTRIES.iter().enumerate() {
            assert_eq!(*e as usize, i, "ENTRIES is in discriminant order");
        }
    }
}
