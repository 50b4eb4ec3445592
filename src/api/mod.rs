//! The safe Rust objects behind the C handles, and the calls on them.
//!
//! Nothing here touches a raw pointer from the caller: `ffi` turns pointers into references,
//! byte slices and addresses, then calls these. Every fn returns `Result<_, Error>`.

pub mod attr;
pub mod blas;
pub mod handle;
pub mod matmul;
pub mod matmul_desc;
pub mod matrix_layout;
pub mod preference;

pub use attr::{AttrType, AttrValue};
pub use handle::{Backend, BlasHandle, LtHandle, RecordedBuffers, RecordedCall};
pub use matmul_desc::MatmulDesc;
pub use matrix_layout::MatrixLayout;
pub use preference::MatmulPreference;

const fn parse_version(s: &str) -> usize {
    let b = s.as_bytes();
    let mut i = 0;
    let mut v = 0;
    while i < b.len() {
        assert!(b[i].is_ascii_digit(), "version component is not a number");
        v = v * 10 + (b[i] - b'0') as usize;
        i += 1;
    }
    v
}

pub const VERSION_MAJOR: usize = parse_version(env!("CARGO_PKG_VERSION_MAJOR"));
pub const VERSION_MINOR: usize = parse_version(env!("CARGO_PKG_VERSION_MINOR"));
pub const VERSION_PATCH: usize = parse_version(env!("CARGO_PKG_VERSION_PATCH"));
/// MAJOR * 10000 + MINOR * 100 + PATCH, as cuBLAS encodes its version.
pub const VERSION: usize = VERSION_MAJOR * 10_000 + VERSION_MINOR * 100 + VERSION_PATCH;
