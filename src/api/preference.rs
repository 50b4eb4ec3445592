//! The heuristic preference behind `deepgemmLtMatmulPreference_t`.

use super::attr::{AttrDef, AttrValue, Check, TAG_CREATED, attr_block};

// Attribute ids (cublasLtMatmulPreferenceAttributes_t).
pub const SEARCH_MODE: i32 = 0;
pub const MAX_WORKSPACE_BYTES: i32 = 1;
pub const REDUCTION_SCHEME_MASK: i32 = 3;
pub const MIN_ALIGNMENT_A_BYTES: i32 = 5;
pub const MIN_ALIGNMENT_B_BYTES: i32 = 6;
pub const MIN_ALIGNMENT_C_BYTES: i32 = 7;
pub const MIN_ALIGNMENT_D_BYTES: i32 = 8;
pub const MAX_WAVES_COUNT: i32 = 9;
pub const IMPL_MASK: i32 = 12;

macro_rules! def {
    ($id:ident, $default:expr, $check:expr) => {
        AttrDef {
            id: $id,
            name: concat!("DEEPGEMMLT_MATMUL_PREF_", stringify!($id)),
            default: $default,
            check: $check,
        }
    };
}

/// cublasLtMatmulPreferenceAttributes_t (CUDA 13.0) with cuBLASLt's types and defaults.
pub static TABLE: [AttrDef; 9] = [
    // BEST_FIT 0, LIMITED_BY_ALGO_ID 1; 2..=9 are reserved.
    def!(SEARCH_MODE, AttrValue::U32(0), Check::Range(0, 1)),
    def!(MAX_WORKSPACE_BYTES, AttrValue::U64(0), Check::Any),
    def!(REDUCTION_SCHEME_MASK, AttrValue::U32(7), Check::Range(0, 7)),
    def!(MIN_ALIGNMENT_A_BYTES, AttrValue::U32(256), Check::Any),
    def!(MIN_ALIGNMENT_B_BYTES, AttrValue::U32(256), Check::Any),
    def!(MIN_ALIGNMENT_C_BYTES, AttrValue::U32(256), Check::Any),
    def!(MIN_ALIGNMENT_D_BYTES, AttrValue::U32(256), Check::Any),
    def!(MAX_WAVES_COUNT, AttrValue::F32(0.0), Check::NonNegativeF32),
    def!(IMPL_MASK, AttrValue::U64(u64::MAX), Check::Any),
];

/// What the heuristic takes from a preference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrefSnapshot {
    pub search_mode: u32,
    pub max_workspace: u64,
    /// 0 = no limit.
    pub max_waves: f32,
    /// MIN_ALIGNMENT_{A,B,C,D}_BYTES: the alignment the caller promises for each pointer
    /// (cuBLASLt lists only algos that run at it; default 256).
    pub min_alignment: [u32; 4],
    /// REDUCTION_SCHEME_MASK: the reductions of split k the caller allows (INPLACE 1,
    /// COMPUTE_TYPE 2, OUTPUT_TYPE 4; default all).
    pub reduction_mask: u32,
    /// IMPL_MASK: the cublasLtNumericalImplFlags_t bits a listed algo may have (default all).
    pub impl_mask: u64,
}

attr_block!(PrefTable, PrefBlock, TABLE, 16, "preference");

/// Exactly the C header's `deepgemmLtMatmulPreferenceOpaque_t` (16 cells of 4 bytes), which
/// an Init function fills in the caller's storage.
#[derive(Debug)]
#[repr(C)]
pub struct MatmulPreference {
    attrs: PrefBlock,
}

impl Default for MatmulPreference {
    fn default() -> Self {
        Self::new()
    }
}

impl MatmulPreference {
    pub fn new() -> MatmulPreference {
        MatmulPreference {
            attrs: PrefBlock::new(TAG_CREATED),
        }
    }

    pub fn snapshot(&self) -> PrefSnapshot {
        let a = &self.attrs;
        let max_waves = match a.get(MAX_WAVES_COUNT) {
            Ok(AttrValue::F32(f)) => f,
            _ => 0.0,
        };
        PrefSnapshot {
            search_mode: a.int(SEARCH_MODE) as u32,
            max_workspace: a.int(MAX_WORKSPACE_BYTES) as u64,
            max_waves,
            min_alignment: [
                MIN_ALIGNMENT_A_BYTES,
                MIN_ALIGNMENT_B_BYTES,
                MIN_ALIGNMENT_C_BYTES,
                MIN_ALIGNMENT_D_BYTES,
            ]
            .map(|id| a.int(id) as u32),
            reduction_mask: a.int(REDUCTION_SCHEME_MASK) as u32,
            impl_mask: a.int(IMPL_MASK) as u64,
        }
    }
}

impl std::ops::Deref for MatmulPreference {
    type Target = PrefBlock;
    fn deref(&self) -> &PrefBlock {
        &self.attrs
    }
}
