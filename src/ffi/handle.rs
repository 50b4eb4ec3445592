//! Library-wide exports: the cuBLASLt handle, versions, status strings.

use std::ffi::c_char;

use super::boundary::{ffi_boundary, ffi_boundary_value, free_box, to_boxed_ptr, write_out};
use super::types::*;
use crate::api;
use crate::api::VERSION;

/// Creates a cuBLASLt-style handle. Returns DEEPGEMM_STATUS_NOT_INITIALIZED when no CUDA
/// driver or device can be used. On success `*handle` owns the context; free it with
/// deepgemmLtDestroy. `*handle` is written only on success. As with cuBLAS, the handle is
/// bound to the device current when it is created (device 0 when no context is current):
/// create one handle per device; a call on a stream of another device returns
/// DEEPGEMM_STATUS_INVALID_VALUE (another context on the same device is fine).
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmLtCreate(handle: *mut deepgemmLtHandle_t) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtCreate", || {
        super::boundary::check_out(handle, "handle")?;
        let h = api::LtHandle::new()?;
        write_out(handle, to_boxed_ptr::<deepgemmLtContext>(h))
    })
}

/// Destroys a handle made by deepgemmLtCreate. NULL is a no-op (SUCCESS). Work already
/// enqueued on streams is not waited for.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmLtDestroy(handle: deepgemmLtHandle_t) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtDestroy", || {
        free_box(handle);
        Ok(())
    })
}

/// The library version: MAJOR * 10000 + MINOR * 100 + PATCH (the DEEPGEMM_VERSION_* macros).
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmLtGetVersion() -> usize {
    VERSION
}

/// Writes the library version (as deepgemmLtGetVersion) to `*version`. cublasGetVersion_v2's
/// signature (cublas_v2.h's cublasGetVersion), so that a call renamed compiles: `handle` is
/// not read and may be NULL (a review found the handle missing: a renamed call did not
/// compile, and one declared by hand wrote the version over its handle).
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmGetVersion(
    handle: deepgemmHandle_t,
    version: *mut i32,
) -> deepgemmStatus_t {
    let _ = handle;
    ffi_boundary("deepgemmGetVersion", || write_out(version, VERSION as i32))
}

fn property(kind: deepgemmLibraryPropertyType_t, value: *mut i32) -> crate::Result<()> {
    let v = match kind {
        DEEPGEMM_MAJOR_VERSION => api::VERSION_MAJOR,
        DEEPGEMM_MINOR_VERSION => api::VERSION_MINOR,
        DEEPGEMM_PATCH_LEVEL => api::VERSION_PATCH,
        _ => {
            return Err(crate::invalid!(
                "library property {kind} (0 major, 1 minor, 2 patch)"
            ));
        }
    };
    write_out(value, v as i32)
}

/// cublasLtGetProperty: the library's major version (selector DEEPGEMM_MAJOR_VERSION = 0),
/// minor version (DEEPGEMM_MINOR_VERSION = 1) or patch level (DEEPGEMM_PATCH_LEVEL = 2) into
/// `*value`; another `type` or a NULL `value`: INVALID_VALUE. (The selectors are not the
/// DEEPGEMM_VERSION_MAJOR / _MINOR / _PATCH macros, which are the version's numbers.)
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmLtGetProperty(
    r#type: deepgemmLibraryPropertyType_t,
    value: *mut i32,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtGetProperty", || property(r#type, value))
}

/// cublasGetProperty: as deepgemmLtGetProperty.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmGetProperty(
    r#type: deepgemmLibraryPropertyType_t,
    value: *mut i32,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmGetProperty", || property(r#type, value))
}

/// cublasLtHeuristicsCacheGetCapacity: how many problems' plan lists the process keeps
/// (`plan::cache`, shared by every handle; 4096 unless DEEPGEMM_HEURISTICS_CACHE_CAPACITY or
/// deepgemmLtHeuristicsCacheSetCapacity says otherwise) into `*capacity`.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmLtHeuristicsCacheGetCapacity(capacity: *mut usize) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtHeuristicsCacheGetCapacity", || {
        write_out(capacity, crate::plan::cache::capacity())
    })
}

/// cublasLtHeuristicsCacheSetCapacity: how many problems' plan lists the process keeps
/// (rounded up to a multiple of 16); 0 keeps none, so every call plans again (~6-15 us of CPU
/// time a call). Lowering it drops what is kept over the new bound.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmLtHeuristicsCacheSetCapacity(capacity: usize) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtHeuristicsCacheSetCapacity", || {
        crate::plan::cache::set_capacity(capacity);
        Ok(())
    })
}

fn status_name(status: i32) -> *const c_char {
    deepgemmStatus_t::from_i32(status)
        .map(|s| s.name())
        .unwrap_or(c"DEEPGEMM_STATUS_UNKNOWN")
        .as_ptr()
}

fn status_string(status: i32) -> *const c_char {
    deepgemmStatus_t::from_i32(status)
        .map(|s| s.description())
        .unwrap_or(c"unknown status")
        .as_ptr()
}

/// The name of a status value, e.g. "DEEPGEMM_STATUS_INVALID_VALUE"; unknown values give
/// "DEEPGEMM_STATUS_UNKNOWN". The string is static: never free it.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmGetStatusName(status: i32) -> *const c_char {
    ffi_boundary_value("deepgemmGetStatusName", std::ptr::null(), || {
        status_name(status)
    })
}

/// A description of a status value; unknown values give "unknown status". The string is
/// static: never free it.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmGetStatusString(status: i32) -> *const c_char {
    ffi_boundary_value("deepgemmGetStatusString", std::ptr::null(), || {
        status_string(status)
    })
}

/// Same as deepgemmGetStatusName.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmLtGetStatusName(status: i32) -> *const c_char {
    ffi_boundary_value("deepgemmLtGetStatusName", std::ptr::null(), || {
        status_name(status)
    })
}

/// Same as deepgemmGetStatusString.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmLtGetStatusString(status: i32) -> *const c_char {
    ffi_boundary_value("deepgemmLtGetStatusString", std::ptr::null(), || {
        status_string(status)
    })
}
