//! The matmul descriptor behind `deepgemmLtMatmulDesc_t`.

use super::attr::{AttrDef, AttrValue, Check, TAG_CREATED, attr_block};
use crate::error::Result;
use crate::invalid;
use crate::problem::OpSpec;
use crate::types::{compute_type, cuda_data_type};

// Attribute ids (cublasLtMatmulDescAttributes_t).
pub const COMPUTE_TYPE: i32 = 0;
pub const SCALE_TYPE: i32 = 1;
pub const POINTER_MODE: i32 = 2;
pub const TRANSA: i32 = 3;
pub const TRANSB: i32 = 4;
pub const TRANSC: i32 = 5;
pub const FILL_MODE: i32 = 6;
pub const EPILOGUE: i32 = 7;
pub const BIAS_POINTER: i32 = 8;
pub const BIAS_BATCH_STRIDE: i32 = 10;
pub const EPILOGUE_AUX_POINTER: i32 = 11;
pub const EPILOGUE_AUX_LD: i32 = 12;
pub const EPILOGUE_AUX_BATCH_STRIDE: i32 = 13;
pub const ALPHA_VECTOR_BATCH_STRIDE: i32 = 14;
pub const SM_COUNT_TARGET: i32 = 15;
pub const A_SCALE_POINTER: i32 = 17;
pub const B_SCALE_POINTER: i32 = 18;
pub const C_SCALE_POINTER: i32 = 19;
pub const D_SCALE_POINTER: i32 = 20;
pub const AMAX_D_POINTER: i32 = 21;
pub const EPILOGUE_AUX_DATA_TYPE: i32 = 22;
pub const EPILOGUE_AUX_SCALE_POINTER: i32 = 23;
pub const EPILOGUE_AUX_AMAX_POINTER: i32 = 24;
pub const FAST_ACCUM: i32 = 25;
pub const BIAS_DATA_TYPE: i32 = 26;
pub const ATOMIC_SYNC_NUM_CHUNKS_D_ROWS: i32 = 27;
pub const ATOMIC_SYNC_NUM_CHUNKS_D_COLS: i32 = 28;
pub const ATOMIC_SYNC_IN_COUNTERS_POINTER: i32 = 29;
pub const ATOMIC_SYNC_OUT_COUNTERS_POINTER: i32 = 30;
pub const A_SCALE_MODE: i32 = 31;
pub const B_SCALE_MODE: i32 = 32;
pub const C_SCALE_MODE: i32 = 33;
pub const D_SCALE_MODE: i32 = 34;
pub const EPILOGUE_AUX_SCALE_MODE: i32 = 35;
pub const D_OUT_SCALE_POINTER: i32 = 36;
pub const D_OUT_SCALE_MODE: i32 = 37;
pub const EMULATION_DESCRIPTOR: i32 = 38;

/// cublasFillMode_t FULL, FILL_MODE's default.
pub const FILL_MODE_FULL: i32 = 2;

/// CUBLAS_OP_N/T/C; CONJG (3) is a placeholder cuBLAS itself does not support.
const OPS: Check = Check::Range(0, 2);
/// cublasLtMatmulMatrixScale_t SCALAR_32F ..= BLK128x128_32F.
const SCALE_MODES: Check = Check::Range(0, 5);

macro_rules! def {
    ($id:ident, $default:expr, $check:expr) => {
        AttrDef {
            id: $id,
            name: concat!("DEEPGEMMLT_MATMUL_DESC_", stringify!($id)),
            default: $default,
            check: $check,
        }
    };
}

/// Every attribute of cublasLtMatmulDescAttributes_t (CUDA 13.0, plus 12.x's ATOMIC_SYNC
/// ones) with cuBLASLt's types and defaults. COMPUTE_TYPE and SCALE_TYPE are set by Create.
pub static TABLE: [AttrDef; 37] = [
    def!(
        COMPUTE_TYPE,
        AttrValue::I32(compute_type::COMPUTE_32F),
        Check::ComputeType
    ),
    def!(
        SCALE_TYPE,
        AttrValue::I32(cuda_data_type::R_32F),
        Check::DataType {
            allow_default: false
        }
    ),
    def!(POINTER_MODE, AttrValue::I32(0), Check::Range(0, 4)),
    def!(TRANSA, AttrValue::I32(0), OPS),
    def!(TRANSB, AttrValue::I32(0), OPS),
    def!(TRANSC, AttrValue::I32(0), OPS),
    def!(
        FILL_MODE,
        AttrValue::I32(FILL_MODE_FULL),
        Check::Range(0, 2)
    ),
    def!(EPILOGUE, AttrValue::U32(1), Check::Epilogue),
    def!(BIAS_POINTER, AttrValue::Ptr(0), Check::Any),
    def!(BIAS_BATCH_STRIDE, AttrValue::I64(0), Check::Any),
    def!(EPILOGUE_AUX_POINTER, AttrValue::Ptr(0), Check::Any),
    def!(
        EPILOGUE_AUX_LD,
        AttrValue::I64(0),
        Check::Range(0, i64::MAX)
    ),
    def!(EPILOGUE_AUX_BATCH_STRIDE, AttrValue::I64(0), Check::Any),
    def!(ALPHA_VECTOR_BATCH_STRIDE, AttrValue::I64(0), Check::Any),
    def!(
        SM_COUNT_TARGET,
        AttrValue::I32(0),
        Check::Range(0, i32::MAX as i64)
    ),
    def!(A_SCALE_POINTER, AttrValue::Ptr(0), Check::Any),
    def!(B_SCALE_POINTER, AttrValue::Ptr(0), Check::Any),
    def!(C_SCALE_POINTER, AttrValue::Ptr(0), Check::Any),
    def!(D_SCALE_POINTER, AttrValue::Ptr(0), Check::Any),
    def!(AMAX_D_POINTER, AttrValue::Ptr(0), Check::Any),
    def!(
        EPILOGUE_AUX_DATA_TYPE,
        AttrValue::I32(-1),
        Check::DataType {
            allow_default: true
        }
    ),
    def!(EPILOGUE_AUX_SCALE_POINTER, AttrValue::Ptr(0), Check::Any),
    def!(EPILOGUE_AUX_AMAX_POINTER, AttrValue::Ptr(0), Check::Any),
    def!(FAST_ACCUM, AttrValue::I8(0), Check::Any),
    def!(
        BIAS_DATA_TYPE,
        AttrValue::I32(-1),
        Check::DataType {
            allow_default: true
        }
    ),
    def!(
        ATOMIC_SYNC_NUM_CHUNKS_D_ROWS,
        AttrValue::I32(0),
        Check::Range(0, i32::MAX as i64)
    ),
    def!(
        ATOMIC_SYNC_NUM_CHUNKS_D_COLS,
        AttrValue::I32(0),
        Check::Range(0, i32::MAX as i64)
    ),
    def!(
        ATOMIC_SYNC_IN_COUNTERS_POINTER,
        AttrValue::Ptr(0),
        Check::Any
    ),
    def!(
        ATOMIC_SYNC_OUT_COUNTERS_POINTER,
        AttrValue::Ptr(0),
        Check::Any
    ),
    def!(A_SCALE_MODE, AttrValue::I32(0), SCALE_MODES),
    def!(B_SCALE_MODE, AttrValue::I32(0), SCALE_MODES),
    def!(C_SCALE_MODE, AttrValue::I32(0), SCALE_MODES),
    def!(D_SCALE_MODE, AttrValue::I32(0), SCALE_MODES),
    def!(EPILOGUE_AUX_SCALE_MODE, AttrValue::I32(0), SCALE_MODES),
    def!(D_OUT_SCALE_POINTER, AttrValue::Ptr(0), Check::Any),
    def!(D_OUT_SCALE_MODE, AttrValue::I32(0), SCALE_MODES),
    def!(EMULATION_DESCRIPTOR, AttrValue::Ptr(0), Check::Any),
];

/// Attributes that deepgemm stores but cannot honour with a non-zero value.
const MUST_BE_ZERO: [i32; 16] = [
    A_SCALE_POINTER,
    B_SCALE_POINTER,
    C_SCALE_POINTER,
    D_SCALE_POINTER,
    AMAX_D_POINTER,
    ATOMIC_SYNC_NUM_CHUNKS_D_ROWS,
    ATOMIC_SYNC_NUM_CHUNKS_D_COLS,
    ATOMIC_SYNC_IN_COUNTERS_POINTER,
    ATOMIC_SYNC_OUT_COUNTERS_POINTER,
    A_SCALE_MODE,
    B_SCALE_MODE,
    C_SCALE_MODE,
    D_SCALE_MODE,
    D_OUT_SCALE_POINTER,
    D_OUT_SCALE_MODE,
    EMULATION_DESCRIPTOR,
];

/// The aux output's attributes: read only by epilogues with the aux bit
/// (`DEEPGEMM_EPILOGUE_AUX` = 128: RELU_AUX, GELU_AUX, DGELU ...), which deepgemm does not
/// run; left set from an earlier aux epilogue on a reused descriptor they are ignored, as
/// cuBLASLt ignores them (a review: they made a plain GEMM NOT_SUPPORTED).
const AUX_MUST_BE_ZERO: [i32; 4] = [
    EPILOGUE_AUX_POINTER,
    EPILOGUE_AUX_SCALE_POINTER,
    EPILOGUE_AUX_AMAX_POINTER,
    EPILOGUE_AUX_SCALE_MODE,
];

attr_block!(DescTable, DescBlock, TABLE, 64, "matmul descriptor");

/// A matmul descriptor: exactly the C header's `deepgemmLtMatmulDescOpaque_t` (64 cells of 4
/// bytes), which an Init function fills in the caller's storage. Atomic cells, so a descriptor
/// shared between threads (a caller bug in cuBLASLt, where it is undefined) is at worst a
/// race between values.
#[derive(Debug)]
#[repr(C)]
pub struct MatmulDesc {
    attrs: DescBlock,
}

/// The descriptor's state at the moment of a call: what the operation needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DescSnapshot {
    pub op: OpSpec,
    pub bias: u64,
    /// SM_COUNT_TARGET: the SMs the call is planned for (0: all).
    pub sm_target: u32,
}

impl MatmulDesc {
    /// cublasLtMatmulDescCreate: unknown compute or scale types are INVALID_VALUE.
    pub fn new(compute_type: i32, scale_type: i32) -> Result<MatmulDesc> {
        let attrs = DescBlock::new(TAG_CREATED);
        attrs
            .set(COMPUTE_TYPE, AttrValue::I32(compute_type))
            .map_err(|_| invalid!("unknown compute type {compute_type}"))?;
        attrs
            .set(SCALE_TYPE, AttrValue::I32(scale_type))
            .map_err(|_| invalid!("unknown scale type {scale_type}"))?;
        Ok(MatmulDesc { attrs })
    }

    /// The operation as `GemmProblem::new` takes it, after refusing (NOT_SUPPORTED) the
    /// attributes deepgemm stores but cannot honour.
    pub fn snapshot(&self) -> Result<DescSnapshot> {
        let a = &self.attrs;
        a.require_zero(
            &MUST_BE_ZERO,
            "deepgemm has no fp8 scaling, aux outputs, atomic sync or emulation",
        )?;
        if a.int(EPILOGUE) & 128 != 0 {
            a.require_zero(&AUX_MUST_BE_ZERO, "deepgemm has no aux outputs")?;
        }
        if a.int(FILL_MODE) != FILL_MODE_FULL as i128 {
            return Err(crate::unsupported!(
                "FILL_MODE = {}: only DEEPGEMM_FILL_MODE_FULL is supported",
                a.int(FILL_MODE)
            ));
        }
        // Every integer attribute below was range-checked by Set; the casts are exact.
        let op = OpSpec {
            compute_type: a.int(COMPUTE_TYPE) as i32,
            scale_type: a.int(SCALE_TYPE) as i32,
            pointer_mode: a.int(POINTER_MODE) as i32,
            trans_a: a.int(TRANSA) as i32,
            trans_b: a.int(TRANSB) as i32,
            trans_c: a.int(TRANSC) as i32,
            epilogue: a.int(EPILOGUE) as i32,
            bias_data_type: a.int(BIAS_DATA_TYPE) as i32,
            bias_batch_stride: a.int(BIAS_BATCH_STRIDE) as i64,
        };
        Ok(DescSnapshot {
            op,
            bias: a.int(BIAS_POINTER) as u64,
            // Range-checked by Set: 0 to i32::MAX.
            sm_target: a.int(SM_COUNT_TARGET) as u32,
        })
    }
}

impl std::ops::Deref for MatmulDesc {
    type Target = DescBlock;
    fn deref(&self) -> &DescBlock {
        &self.attrs
    }
}
