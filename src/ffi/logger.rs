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

/// cublasLtLoggerSetMask: turns levels on one by one (1 Error, 2 Trace, 4 Hints, 8 Info, 16
/// API trace; any sum, 0 off), overriding DEEPGEMM_LOG_MASK / DEEPGEMM_LOG_LEVEL. Other values:
/// INVALID_VALUE.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmLtLoggerSetMask(mask: i32) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtLoggerSetMask", || {
        if log::set_mask(mask) {
            Ok(())
        } else {
            Err(invalid!("log mask {mask} (0..=31)"))
        }
    })
}

/// cublasLtLoggerForceDisable: no more logging in this process. Later SetLevel / SetMask /
/// OpenFile / SetFile / SetCallback calls are checked and return as before, but nothing is
/// logged.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmLtLoggerForceDisable() -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtLoggerForceDisable", || {
        log::force_disable();
        Ok(())
    })
}

/// cublasLtLoggerCallback_t: called with the level (1 Error ... 5 API trace), the function
/// that logs and the message, both NUL-terminated and valid only during the call.
#[allow(non_camel_case_types, non_snake_case)]
pub type deepgemmLtLoggerCallback_t = Option<
    unsafe extern "C" fn(logLevel: i32, functionName: *const c_char, message: *const c_char),
>;

/// cublasLtLoggerSetCallback: every enabled message goes to `callback` instead of the log
/// file or stderr; NULL sends them back there. The callback runs on the thread that logs
/// (any of the caller's threads), possibly while the library holds internal locks: it must
/// not call deepgemm (what deepgemm logs from inside it goes to the file or stderr) and must
/// not unwind. Replacing the callback does not wait for calls already inside the old one.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmLtLoggerSetCallback(
    callback: deepgemmLtLoggerCallback_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtLoggerSetCallback", || {
        log::set_callback(callback);
        Ok(())
    })
}

/// cublasLtLoggerSetFile: appends the log to the caller's open stream `file` (a FILE*, e.g.
/// stdout), which must stay open while the library may log; NULL sends it back to stderr.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmLtLoggerSetFile(file: *mut libc::FILE) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtLoggerSetFile", || {
        log::set_c_file(file);
        Ok(())
    })
}
