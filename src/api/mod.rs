//! The safe Rust objects behind the C handles, and the calls on them.
//!
//! Nothing here touches a raw pointer from the caller: `ffi` turns pointers into references,
//! byte slices and addresses, then calls these. Every fn returns `Result<_, Error>`.

pub mod attr;
pub mod blas;
pub mod device;
pub mod handle;
pub mod matmul;
pub mod matmul_desc;
pub mod matrix_layout;
pub mod preference;

pub use attr::{AttrType, AttrValue};
pub use handle::{Backend, BlasHandle, LtHandle, RecordedCall};
pub use matmul_desc::MatmulDesc;
pub use matrix_layout::MatrixLayout;
pub use preference::MatmulPreference;
