//! deepgemmLtMatmulPreference*: limits for the heuristic.

use std::ffi::c_void;

use super::boundary::{
    check_out, create_stored, destroy_stored, ffi_boundary, get_attribute, init_stored,
    input_bytes, try_stored, write_out,
};
use super::types::*;
use crate::api;

/// Creates a preference with cuBLASLt's defaults (no workspace allowed). `*pref` is
/// written only on success; free it with deepgemmLtMatmulPreferenceDestroy.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmLtMatmulPreferenceCreate(
    pref: *mut deepgemmLtMatmulPreference_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatmulPreferenceCreate", || {
        check_out(pref, "pref")?;
        write_out(
            pref,
            create_stored::<deepgemmLtMatmulPreferenceOpaque_t>(api::MatmulPreference::new()),
        )
    })
}

/// cublasLtMatmulPreferenceInit_internal: builds a preference with cuBLASLt's defaults in the
/// caller's storage (`size` bytes at `pref`, at least
/// sizeof(deepgemmLtMatmulPreferenceOpaque_t) and 8-byte aligned); nothing to destroy. The
/// header's static inline deepgemmLtMatmulPreferenceInit passes the size. ALLOC_FAILED for
/// too little storage (cublasLt.h's status), INVALID_VALUE for NULL or misaligned storage.
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmLtMatmulPreferenceInit_internal(
    pref: deepgemmLtMatmulPreference_t,
    size: usize,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatmulPreferenceInit_internal", || {
        init_stored(pref, size, api::MatmulPreference::new())
    })
}

/// Destroys a preference; NULL is a no-op.
#[unsafe(no_mangle)]
pub extern "C" fn deepgemmLtMatmulPreferenceDestroy(
    pref: deepgemmLtMatmulPreference_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatmulPreferenceDestroy", || destroy_stored(pref))
}

/// Sets an attribute (see deepgemmLtMatmulDescSetAttribute for the rules).
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmLtMatmulPreferenceSetAttribute(
    pref: deepgemmLtMatmulPreference_t,
    attr: deepgemmLtMatmulPreferenceAttributes_t,
    buf: *const c_void,
    sizeInBytes: usize,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatmulPreferenceSetAttribute", || {
        let p = try_stored(pref, "pref")?;
        p.set_attribute(attr, input_bytes(buf, sizeInBytes)?)
    })
}

/// Reads an attribute (see deepgemmLtMatmulDescGetAttribute for the rules).
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmLtMatmulPreferenceGetAttribute(
    pref: deepgemmLtMatmulPreference_t,
    attr: deepgemmLtMatmulPreferenceAttributes_t,
    buf: *mut c_void,
    sizeInBytes: usize,
    sizeWritten: *mut usize,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatmulPreferenceGetAttribute", || {
        let p = try_stored(pref, "pref")?;
        get_attribute(p.get(attr), buf, sizeInBytes, sizeWritten)
    })
}
