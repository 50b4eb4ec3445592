//! Log control (cublasLtLoggerSetLevel / cublasLtLoggerOpenFile).

use std::ffi::c_char;

use super::boundary::ffi_boundary;
use super::types::deepgemmStatus_t;
use crate::{invalid, log};

/// Sets the log level: 0 off, 1 errors, 2 trace (kernel launches), 3 hints, 4 info,
/// 5 API trace (every call). Overrides DEEPGEMM_LOG_LEVEL. Other values: INVALID_VALUE.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmLtLoggerSetLevel(level: i32) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtLoggerSetLevel", || {
        if log::set_level(level) {
            Ok(())
        } else {
            Err(invalid!("log level {level} (0..=5)"))
        }
    })
}

/// Same as deepgemmLtLoggerSetLevel.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmLoggerSetLevel(level: i32) -> deepgemmStatus_t {
    deepgemmLtLoggerSetLevel(level)
}

/// Appends the log to the file at `logFile` (overrides DEEPGEMM_LOG_FILE); NULL sends it
/// back to stderr. INVALID_VALUE when the file cannot be opened.
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmLtLoggerOpenFile(logFile: *const c_char) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtLoggerOpenFile", || {
        let path = super::boundary::read_cstr(logFile)?;
        if log::set_file(path) {
            Ok(())
        } else {
            Err(invalid!(
                "cannot open log file {:?}",
                path.unwrap_or_default()
            ))
        }
    })
}
