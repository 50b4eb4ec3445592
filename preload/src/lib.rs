//! libdeepgemm_preload.so: run unmodified programs (PyTorch, inference engines) with
//! deepgemm in place of cuBLAS/cuBLASLt GEMMs, via `LD_PRELOAD`.
//!
//! The library exports only cuBLAS's and cuBLASLt's GEMM entry points, and cuBLAS's
//! cublasSetWorkspace_v2 and cublasDestroy_v2, which it forwards after noting the handle's
//! workspace (`exports`). Each call
//! is read exactly (cuBLASLt descriptors through the real library's GetAttribute, cuBLAS
//! handle state through the real getters), run through deepgemm when deepgemm computes it
//! exactly as specified, and otherwise, or on any error, forwarded unchanged to the real
//! function (`real`). It is a separate library from libdeepgemm.so: deepgemm is linked in
//! statically with every one of its symbols hidden, so it never clashes with a libdeepgemm.so
//! or a cuBLAS the program also loads.
//!
//! Reading order: `exports` (C entry points) -> `dispatch` (substitute or forward, count,
//! log) -> `lt` / `blas` (read the call, run it) -> `decide` (the rules, pure) -> `real`
//! (the real functions) ; `config` (environment), `stats` (counters, summary at exit) and
//! `workspace` (each cuBLAS handle's workspace, from the interposed cublasSetWorkspace_v2).
#![deny(unsafe_op_in_unsafe_fn)]

mod blas;
mod config;
mod decide;
mod dispatch;
mod exports;
mod lt;
mod real;
mod stats;
mod workspace;

/// Load-time constructor: reads the environment and, when a log is asked for, registers
/// the summary to be printed at exit. Runs in every process the preload reaches, so it does
/// nothing else (no CUDA, no cuBLAS lookups: those happen on the first GEMM call).
extern "C" fn on_load() {
    let _ = std::panic::catch_unwind(|| {
        if config::get().log != config::LogMode::Off {
            // SAFETY: registering a plain extern "C" fn that never unwinds.
            unsafe { libc::atexit(stats::print_summary) };
        }
    });
}

#[used]
#[unsafe(link_section = ".init_array")]
static ON_LOAD: extern "C" fn() = on_load;
