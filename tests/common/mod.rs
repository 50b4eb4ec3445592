//! Helpers shared by the GPU test suites (`tests/gpu_*.rs`) and compiled into
//! deepgemm-bench as well (`#[path]` modules), so that both check with the same code.
//!
//! - `host`: element types, random data, geometry, float64 reference, error metric.
//! - `device`: CUDA context, buffers, streams, events (cudarc driver API).
//! - `lt`: cuBLASLt-shaped call table (deepgemm or NVIDIA's cuBLASLt) and descriptors.
//! - `dg`: that table over deepgemm's C API.
//! - `case`: one GEMM's device data.
//! - `suite`: the test harness (environment, runner, failure collection).

pub mod blas;
pub mod case;
pub mod device;
pub mod dg;
pub mod host;
pub mod lt;
pub mod suite;
