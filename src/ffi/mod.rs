//! The C API: every `#[no_mangle]` function of the library, cuBLASLt's and cuBLAS's
//! functions renamed (`cublasLt` -> `deepgemmLt`, `cublas` -> `deepgemm`), with the same
//! argument order and numeric values. One module per C object; each export is a thin shell
//! (boundary + checked pointers + a call into `api`). `include/deepgemm.h` is generated
//! from these modules by cbindgen (see cbindgen.toml and tests/header.rs).
//!
//! Calling from Rust: `use deepgemm::ffi::*;` brings in every export and C type. The
//! exports take raw pointers with the C contract (valid or NULL, objects from the matching
//! Create), which Rust cannot check.
#![allow(non_snake_case, clippy::not_unsafe_ptr_arg_deref)]

pub mod algo;
pub mod algo_enums;
pub mod blas;
pub mod boundary;
pub mod handle;
pub mod logger;
pub mod matmul;
pub mod matmul_desc;
pub mod matrix_layout;
pub mod preference;
pub mod testing;
pub mod types;

pub use algo::*;
pub use algo_enums::*;
pub use blas::*;
pub use handle::*;
pub use logger::*;
pub use matmul::{deepgemmLtMatmul, deepgemmLtMatmulAlgoCheck, deepgemmLtMatmulAlgoGetHeuristic};
pub use matmul_desc::*;
pub use matrix_layout::*;
pub use preference::*;
pub use types::*;
