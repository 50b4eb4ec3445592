//! deepgemmLtMatrixLayout*: the layout of one matrix.

use std::ffi::c_void;

use super::boundary::{
    check_out, create_stored, destroy_stored, ffi_boundary, get_attribute, init_stored,
    input_bytes, try_stored, write_out,
};
use super::types::*;
use crate::api;

/// Creates a matrix layout: element type, rows, cols and leading dimension (column-major
/// by default; set DEEPGEMMLT_MATRIX_LAYOUT_ORDER for row-major). INVALID_VALUE for an
/// unknown type, rows or cols above INT64_MAX, or a negative ld. `*matLayout` is written
/// only on success; free it with deepgemmLtMatrixLayoutDestroy.
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmLtMatrixLayoutCreate(
    matLayout: *mut deepgemmLtMatrixLayout_t,
    dataType: deepgemmDataType_t,
    rows: u64,
    cols: u64,
    ld: i64,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatrixLayoutCreate", || {
        check_out(matLayout, "matLayout")?;
        let l = api::MatrixLayout::new(dataType, rows, cols, ld)?;
        write_out(
            matLayout,
            create_stored::<deepgemmLtMatrixLayoutOpaque_t>(l),
        )
    })
}

/// cublasLtMatrixLayoutInit_internal: builds a matrix layout in the caller's storage (`size`
/// bytes at `matLayout`, at least sizeof(deepgemmLtMatrixLayoutOpaque_t) and 8-byte aligned),
/// as Create does on the heap; nothing to destroy, and its bytes may be copied. The header's
/// static inline deepgemmLtMatrixLayoutInit passes the size. ALLOC_FAILED for too little
/// storage (cublasLt.h's status); INVALID_VALUE as Create's, and for NULL or misaligned
/// storage (left as it was).
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmLtMatrixLayoutInit_internal(
    matLayout: deepgemmLtMatrixLayout_t,
    size: usize,
    dataType: deepgemmDataType_t,
    rows: u64,
    cols: u64,
    ld: i64,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatrixLayoutInit_internal", || {
        let l = api::MatrixLayout::new(dataType, rows, cols, ld)?;
        init_stored(matLayout, size, l)
    })
}

/// Destroys a matrix layout; NULL is a no-op.
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmLtMatrixLayoutDestroy(
    matLayout: deepgemmLtMatrixLayout_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatrixLayoutDestroy", || {
        destroy_stored(matLayout)
    })
}

/// Sets an attribute (see deepgemmLtMatmulDescSetAttribute for the rules).
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmLtMatrixLayoutSetAttribute(
    matLayout: deepgemmLtMatrixLayout_t,
    attr: deepgemmLtMatrixLayoutAttribute_t,
    buf: *const c_void,
    sizeInBytes: usize,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatrixLayoutSetAttribute", || {
        let l = try_stored(matLayout, "matLayout")?;
        l.set_attribute(attr, input_bytes(buf, sizeInBytes)?)
    })
}

/// Reads an attribute (see deepgemmLtMatmulDescGetAttribute for the rules).
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmLtMatrixLayoutGetAttribute(
    matLayout: deepgemmLtMatrixLayout_t,
    attr: deepgemmLtMatrixLayoutAttribute_t,
    buf: *mut c_void,
    sizeInBytes: usize,
    sizeWritten: *mut usize,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatrixLayoutGetAttribute", || {
        let l = try_stored(matLayout, "matLayout")?;
        get_attribute(l.get(attr), buf, sizeInBytes, sizeWritten)
    })
}
