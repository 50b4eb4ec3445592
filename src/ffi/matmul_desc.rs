//! deepgemmLtMatmulDesc*: the operation descriptor.

use std::ffi::c_void;

use super::boundary::{
    check_out, create_stored, destroy_stored, ffi_boundary, get_attribute, init_stored,
    input_bytes, try_stored, write_out,
};
use super::types::*;
use crate::api;

/// Creates a matmul descriptor with a compute type (deepgemmComputeType_t) and a scale type
/// (deepgemmDataType_t of alpha and beta); unknown values are INVALID_VALUE. `*matmulDesc`
/// is written only on success; free it with deepgemmLtMatmulDescDestroy.
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmLtMatmulDescCreate(
    matmulDesc: *mut deepgemmLtMatmulDesc_t,
    computeType: deepgemmComputeType_t,
    scaleType: deepgemmDataType_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatmulDescCreate", || {
        check_out(matmulDesc, "matmulDesc")?;
        let d = api::MatmulDesc::new(computeType, scaleType)?;
        write_out(matmulDesc, create_stored::<deepgemmLtMatmulDescOpaque_t>(d))
    })
}

/// cublasLtMatmulDescInit_internal: builds a matmul descriptor in the caller's storage
/// (`size` bytes at `matmulDesc`, at least sizeof(deepgemmLtMatmulDescOpaque_t) and 8-byte
/// aligned), as Create does on the heap; there is nothing to destroy, and a copy of its bytes
/// is an independent descriptor. The header's static inline deepgemmLtMatmulDescInit passes
/// the size. ALLOC_FAILED for too little storage (cublasLt.h's status), INVALID_VALUE for
/// NULL, misaligned storage, or an unknown compute or scale type (the storage is then left
/// as it was).
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmLtMatmulDescInit_internal(
    matmulDesc: deepgemmLtMatmulDesc_t,
    size: usize,
    computeType: deepgemmComputeType_t,
    scaleType: deepgemmDataType_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatmulDescInit_internal", || {
        let d = api::MatmulDesc::new(computeType, scaleType)?;
        init_stored(matmulDesc, size, d)
    })
}

/// Destroys a matmul descriptor; NULL is a no-op.
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmLtMatmulDescDestroy(
    matmulDesc: deepgemmLtMatmulDesc_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatmulDescDestroy", || destroy_stored(matmulDesc))
}

/// Sets an attribute from `sizeInBytes` bytes at `buf`. INVALID_VALUE for an unknown
/// attribute, a NULL `buf`, a size other than the attribute type's, or an invalid value.
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmLtMatmulDescSetAttribute(
    matmulDesc: deepgemmLtMatmulDesc_t,
    attr: deepgemmLtMatmulDescAttributes_t,
    buf: *const c_void,
    sizeInBytes: usize,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatmulDescSetAttribute", || {
        let d = try_stored(matmulDesc, "matmulDesc")?;
        d.set_attribute(attr, input_bytes(buf, sizeInBytes)?)
    })
}

/// Reads an attribute. With `sizeInBytes == 0`, writes the size the attribute needs to
/// `*sizeWritten` and returns SUCCESS. Otherwise `sizeInBytes` must be exactly the
/// attribute's size and `buf` non-NULL; `*sizeWritten` (if not NULL) gets the bytes written.
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmLtMatmulDescGetAttribute(
    matmulDesc: deepgemmLtMatmulDesc_t,
    attr: deepgemmLtMatmulDescAttributes_t,
    buf: *mut c_void,
    sizeInBytes: usize,
    sizeWritten: *mut usize,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatmulDescGetAttribute", || {
        let d = try_stored(matmulDesc, "matmulDesc")?;
        get_attribute(d.get(attr), buf, sizeInBytes, sizeWritten)
    })
}
