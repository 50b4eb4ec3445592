//! deepgemmLtMatrixLayout*: the layout of one matrix.

use std::ffi::c_void;

use super::boundary::{
    check_out, ffi_boundary, free_box, get_attribute, input_bytes, to_boxed_ptr, try_ref, write_out,
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
        write_out(matLayout, to_boxed_ptr::<deepgemmLtMatrixLayoutOpaque>(l))
    })
}

/// Destroys a matrix layout; NULL is a no-op.
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmLtMatrixLayoutDestroy(
    matLayout: deepgemmLtMatrixLayout_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatrixLayoutDestroy", || {
        free_box(matLayout);
        Ok(())
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
        let l = try_ref(matLayout, "matLayout")?;
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
        let l = try_ref(matLayout, "matLayout")?;
        get_attribute(l.get(attr), buf, sizeInBytes, sizeWritten)
    })
}
