//! deepgemm: GEMM for NVIDIA GPUs behind a cuBLASLt-shaped C API.
//!
//! Reading order follows one call: `ffi` (the C boundary) -> `api` (the objects behind the
//! handles) -> `problem` (validated GEMM as plain data) -> `plan` (kernel choice, pure) ->
//! `jit` (kernel source, NVRTC, disk cache) -> `runtime` (driver, per-device registry,
//! launch) -> `gemm` (ties plan and runtime together for one call).
#![deny(unsafe_op_in_unsafe_fn)]

pub mod api;
pub mod error;
pub mod ffi;
pub mod gemm;
pub mod jit;
pub mod log;
pub mod plan;
pub mod problem;
pub mod runtime;
pub mod types;

pub use error::{Error, Result};
