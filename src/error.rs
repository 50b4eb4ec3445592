//! The library's error type. Every failure inside deepgemm is an `Error`; the C boundary
//! maps it to the cuBLAS status with the same meaning (`Error::status`) and logs `Display`.

use std::fmt;

/// cublasStatus_t numeric values (cublas_api.h).
pub mod status {
    pub const SUCCESS: i32 = 0;
    pub const NOT_INITIALIZED: i32 = 1;
    pub const ALLOC_FAILED: i32 = 3;
    pub const INVALID_VALUE: i32 = 7;
    pub const ARCH_MISMATCH: i32 = 8;
    pub const MAPPING_ERROR: i32 = 11;
    pub const EXECUTION_FAILED: i32 = 13;
    pub const INTERNAL_ERROR: i32 = 14;
    pub const NOT_SUPPORTED: i32 = 15;
    pub const LICENSE_ERROR: i32 = 16;
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// No driver, no device, or the library was not set up (NOT_INITIALIZED).
    NotInitialized(String),
    /// A bad argument from the caller (INVALID_VALUE).
    InvalidValue(String),
    /// A valid request deepgemm does not implement (NOT_SUPPORTED).
    NotSupported(String),
    /// The device cannot run what was asked (ARCH_MISMATCH).
    ArchMismatch(String),
    /// Device memory could not be allocated (ALLOC_FAILED).
    AllocFailed(String),
    /// A launch or the device failed (EXECUTION_FAILED).
    ExecutionFailed(String),
    /// A launch failed after earlier launches of the same call had been enqueued that write
    /// D (EXECUTION_FAILED): D may be partly written, so the call must not be run again from
    /// its C (the LD_PRELOAD library reports it instead of forwarding it to cuBLAS).
    PartlyDone(String),
    /// A bug or an unexpected driver/NVRTC failure (INTERNAL_ERROR).
    Internal(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn status(&self) -> i32 {
        match self {
            Error::NotInitialized(_) => status::NOT_INITIALIZED,
            Error::InvalidValue(_) => status::INVALID_VALUE,
            Error::NotSupported(_) => status::NOT_SUPPORTED,
            Error::ArchMismatch(_) => status::ARCH_MISMATCH,
            Error::AllocFailed(_) => status::ALLOC_FAILED,
            Error::ExecutionFailed(_) | Error::PartlyDone(_) => status::EXECUTION_FAILED,
            Error::Internal(_) => status::INTERNAL_ERROR,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Error::NotInitialized(m)
            | Error::InvalidValue(m)
            | Error::NotSupported(m)
            | Error::ArchMismatch(m)
            | Error::AllocFailed(m)
            | Error::ExecutionFailed(m)
            | Error::PartlyDone(m)
            | Error::Internal(m) => m,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}

/// `invalid!("ld {} < rows {}", ld, rows)` builds an `Error::InvalidValue`.
#[macro_export]
macro_rules! invalid {
    ($($t:tt)*) => { $crate::error::Error::InvalidValue(format!($($t)*)) };
}

/// `unsupported!("...")` builds an `Error::NotSupported`.
#[macro_export]
macro_rules! unsupported {
    ($($t:tt)*) => { $crate::error::Error::NotSupported(format!($($t)*)) };
}
