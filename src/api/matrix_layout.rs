//! The matrix layout behind `deepgemmLtMatrixLayout_t`.

use super::attr::{AttrDef, AttrValue, Check, TAG_CREATED, attr_block};
use crate::error::Result;
use crate::invalid;
use crate::problem::MatrixSpec;

// Attribute ids (cublasLtMatrixLayoutAttribute_t).
pub const TYPE: i32 = 0;
pub const ORDER: i32 = 1;
pub const ROWS: i32 = 2;
pub const COLS: i32 = 3;
pub const LD: i32 = 4;
pub const BATCH_COUNT: i32 = 5;
pub const STRIDED_BATCH_OFFSET: i32 = 6;
pub const PLANE_OFFSET: i32 = 7;
pub const BATCH_MODE: i32 = 8;

/// Sizes must fit in int64 so that element offsets can be computed in int64 (what the
/// kernels use); larger ones are INVALID_VALUE already at Create/Set.
const DIM: Check = Check::Range(0, i64::MAX);

macro_rules! def {
    ($id:ident, $default:expr, $check:expr) => {
        AttrDef {
            id: $id,
            name: concat!("DEEPGEMMLT_MATRIX_LAYOUT_", stringify!($id)),
            default: $default,
            check: $check,
        }
    };
}

/// cublasLtMatrixLayoutAttribute_t (CUDA 13.0) with cuBLASLt's types and defaults.
pub static TABLE: [AttrDef; 9] = [
    def!(
        TYPE,
        AttrValue::U32(0),
        Check::DataType {
            allow_default: false
        }
    ),
    def!(ORDER, AttrValue::I32(0), Check::Range(0, 4)),
    def!(ROWS, AttrValue::U64(0), DIM),
    def!(COLS, AttrValue::U64(0), DIM),
    // cuBLASLt: "currently only non-negative values are supported". ld >= rows (or cols
    // for ROW order) is checked when the layout is used, since ORDER may change after.
    def!(LD, AttrValue::I64(0), DIM),
    def!(
        BATCH_COUNT,
        AttrValue::I32(1),
        Check::Range(1, i32::MAX as i64)
    ),
    def!(STRIDED_BATCH_OFFSET, AttrValue::I64(0), Check::Any),
    def!(PLANE_OFFSET, AttrValue::I64(0), Check::Any),
    def!(BATCH_MODE, AttrValue::I32(0), Check::Range(0, 1)),
];

attr_block!(LayoutTable, LayoutBlock, TABLE, 16, "matrix layout");

/// Exactly the C header's `deepgemmLtMatrixLayoutOpaque_t` (16 cells of 4 bytes), which
/// an Init function fills in the caller's storage.
#[derive(Debug)]
#[repr(C)]
pub struct MatrixLayout {
    attrs: LayoutBlock,
}

impl MatrixLayout {
    /// cublasLtMatrixLayoutCreate: an unknown type, dimensions over INT64_MAX or a negative
    /// leading dimension are INVALID_VALUE.
    pub fn new(dtype: i32, rows: u64, cols: u64, ld: i64) -> Result<MatrixLayout> {
        let a = LayoutBlock::new(TAG_CREATED);
        // A negative dtype reinterpreted as uint32_t is > 35, so still unknown.
        a.set(TYPE, AttrValue::U32(dtype as u32))
            .map_err(|_| invalid!("unknown data type {dtype}"))?;
        a.set(ROWS, AttrValue::U64(rows))
            .map_err(|_| invalid!("rows {rows} > INT64_MAX"))?;
        a.set(COLS, AttrValue::U64(cols))
            .map_err(|_| invalid!("cols {cols} > INT64_MAX"))?;
        a.set(LD, AttrValue::I64(ld))
            .map_err(|_| invalid!("leading dimension {ld} < 0"))?;
        Ok(MatrixLayout { attrs: a })
    }

    /// The layout as `GemmProblem::new` takes it; planar complex and pointer-array batches
    /// are NOT_SUPPORTED.
    pub fn spec(&self) -> Result<MatrixSpec> {
        let a = &self.attrs;
        a.require_zero(&[PLANE_OFFSET], "planar complex layouts are not supported")?;
        a.require_zero(&[BATCH_MODE], "only strided batches are supported")?;
        // Range-checked by Set: the casts are exact.
        Ok(MatrixSpec {
            dtype: a.int(TYPE) as i32,
            order: a.int(ORDER) as i32,
            rows: a.int(ROWS) as u64,
            cols: a.int(COLS) as u64,
            ld: a.int(LD) as i64,
            batch_count: a.int(BATCH_COUNT) as i32,
            batch_stride: a.int(STRIDED_BATCH_OFFSET) as i64,
        })
    }
}

impl std::ops::Deref for MatrixLayout {
    type Target = LayoutBlock;
    fn deref(&self) -> &LayoutBlock {
        &self.attrs
    }
}
