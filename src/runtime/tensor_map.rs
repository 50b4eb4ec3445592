//! Host side of the sm90 kernel's launch: the TMA tensor maps (A, B, and D for the TMA-store
//! epilogue), the parameter block, and the kernel argument array.
//!
//! `encode_args` (pure, CPU-tested) computes every argument of `cuTensorMapEncodeTiled`;
//! `encode` makes the one driver call. A tensor map is rank 3 with the operand's contiguous
//! dimension innermost: (k, rows, batch) for a K-major operand with a box of one tile's 128
//! bytes of k (BLOCK_K x BLOCK_M for A, BLOCK_K x BLOCK_N for B; a 128-deep stage of 16-bit k,
//! `Sm90Variant::with_deep_stages`, loads two such boxes), (rows, k, batch) for an MN-major one with
//! a box of one 128-byte chunk of rows (64 16-bit or 32 fp32 values x BLOCK_K; the kernel loads
//! a tile as several chunks). Rows
//! are m for A and n for B. All use the 128-byte swizzle that the wgmma descriptors in
//! kernels/sm90/descriptor.cuh expect.
//!
//! D's map (`encode_store_args`) is (m, n, batch) for column-major D, (n, m, batch) for row-major,
//! with a box of 64 x 64 and the 128-byte swizzle that kernels/sm90/store.cuh writes its staging
//! with. It is encoded only when `plan::sm90::tma_store` accepts the launch (the parameter block
//! then carries FLAG_TMA_STORE); otherwise the kernel never reads it and it stays zero. C's map
//! (`encode_c_args`) is D's with C's address and strides, encoded when beta != 0 and
//! `plan::sm90::c_tma` accepts C (FLAG_C_TMA: the epilogue loads C's boxes by TMA).

use std::ffi::c_void;
use std::panic::{AssertUnwindSafe, catch_unwind};

use cudarc::driver::sys::{
    self, CUfunction, CUfunction_attribute, CUresult, CUstream, CUtensorMapDataType,
    CUtensorMapFloatOOBfill, CUtensorMapInterleave, CUtensorMapL2promotion, CUtensorMapSwizzle,
};

use super::driver::check;
use crate::error::{Error, Result};
use crate::jit::params::bias_flags;
use crate::plan::sm90::{
    self as plan_sm90, Major, STORE_BOX, SWIZZLE_BYTES, Sm90Variant, StoreLayout, TMA_MAX_STRIDE,
    TMA_STRIDE_ALIGN,
};
use crate::problem::{GemmPointers, GemmProblem, Scalar};
use crate::types::ScalarType;
use crate::{invalid, unsupported};

/// cuda.h's `CUtensorMap`: 128 opaque bytes, 64-byte aligned (cuTensorMapEncodeTiled's rule),
/// passed to the kernel by value as a `__grid_constant__` parameter.
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorMap(pub [u64; 16]);

const _: () = assert!(std::mem::size_of::<TensorMap>() == 128);
const _: () = assert!(std::mem::align_of::<TensorMap>() == 64);

/// Which operand a tensor map describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    A,
    B,
}

/// The arguments of one `cuTensorMapEncodeTiled` call (rank 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TiledEncode {
    pub data_type: CUtensorMapDataType,
    pub global_address: u64,
    /// Extents, innermost first: (k, rows, batch) when K-major, (rows, k, batch) when MN-major;
    /// rows = m for A and n for B.
    pub global_dim: [u64; 3],
    /// Byte strides of dimensions 1 and 2 (dimension 0 is contiguous).
    pub global_strides: [u64; 2],
    pub box_dim: [u32; 3],
    pub element_strides: [u32; 3],
    pub interleave: CUtensorMapInterleave,
    pub swizzle: CUtensorMapSwizzle,
    pub l2_promotion: CUtensorMapL2promotion,
    pub oob_fill: CUtensorMapFloatOOBfill,
}

/// The encode arguments for operand `which` of `p`, whose data starts at device address
/// `address`. NOT_SUPPORTED when the variant does not take `p`; INVALID_VALUE for an address
/// TMA cannot use.
pub fn encode_args(
    v: &Sm90Variant,
    p: &GemmProblem,
    which: Operand,
    address: u64,
) -> Result<TiledEncode> {
    v.check(p)
        .map_err(|why| unsupported!("{} cannot run this problem: {why}", v.name()))?;
    if address == 0 || address % TMA_STRIDE_ALIGN != 0 {
        return Err(invalid!(
            "{which:?} = {address:#x}: TMA needs a non-null 16-byte aligned address"
        ));
    }
    let elem = v.ab.size_bytes() as u64;
    // `check` guaranteed the strides match the variant's layouts; `ld` is the stride between
    // consecutive lines of the contiguous dimension.
    let (lda, ldb) = v.leading_dims(p).map_err(|why| unsupported!("{why}"))?;
    let (rows, ld, batch_stride, box_rows, major) = match which {
        // The CTAs of a tile row (clusters of 2 x 2, 1 x 2, 1 x 4) each load a 1/cluster_n
        // share of A's rows and multicast it.
        Operand::A => (
            p.m,
            lda as u64,
            p.a.batch,
            v.block_m / v.cluster_n.max(1),
            v.major_a,
        ),
        // A cluster's CTAs each load a 1/cluster_m share of B's rows and multicast it.
        Operand::B => (
            p.n,
            ldb as u64,
            p.b.batch,
            v.block_n / v.cluster_m,
            v.major_b,
        ),
    };
    // (inner extent, outer extent, box): K-major boxes are a tile's 128 bytes of k (one
    // swizzle slab: a 128-deep stage of 16-bit k loads two, `Sm90Variant::deep`), MN-major
    // boxes one 128-byte-wide chunk of rows by BLOCK_K.
    let chunk = SWIZZLE_BYTES / elem as u32;
    let (inner, outer, box_dim) = match major {
        Major::K => (p.k, rows, [chunk, box_rows, 1]),
        Major::MN => (rows, p.k, [chunk, v.block_k, 1]),
    };
    let line_bytes = ld * elem;
    // With one batch the third coordinate is always 0; any legal stride will do, and the
    // packed one (the whole matrix) is legal whenever the matrix fits in device memory.
    let batch_bytes = if p.batch > 1 {
        batch_stride as u64 * elem
    } else {
        outer
            .checked_mul(line_bytes)
            .filter(|&b| b < TMA_MAX_STRIDE)
            .ok_or_else(|| unsupported!("{which:?} spans 2^40 bytes or more"))?
    };
    let data_type = match v.ab {
        ScalarType::BF16 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        ScalarType::F16 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        // fp32 operands are multiplied as tf32. TFLOAT32 makes TMA round each value to tf32
        // (to nearest) as it loads; with FLOAT32 the tensor core may drop the low 13 mantissa
        // bits instead, a bias toward zero: 7-8e-4 relative Frobenius error against a
        // rounded-input reference (CPU simulation, inputs in [-1, 1), k = 8..1000), above the
        // 5e-4 bound of the GPU tests (tests/common/host.rs `tolerance`).
        ScalarType::F32 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_TFLOAT32,
    };
    Ok(TiledEncode {
        data_type,
        global_address: address,
        global_dim: [inner, outer, p.batch],
        global_strides: [line_bytes, batch_bytes],
        box_dim,
        element_strides: [1, 1, 1],
        interleave: CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
        swizzle: CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B,
        l2_promotion: operand_l2_promotion(line_bytes),
        // Zero fill past the edges: zeros add nothing to the dot products.
        oob_fill: CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
    })
}

/// The L2 promotion of A's or B's tensor map, whose lines are `line_bytes` apart: 256 bytes (as
/// DeepGEMM: tiles are re-read by many CTAs from L2) where the lines start on 128-byte L2
/// lines, 128 where they do not. Lines off the L2's lines ran up to 15% slower with 256
/// (H200, session 18: 2048x2048x8200 TN on 128x256 clusters 103.8 us against 91.0,
/// 1528x896x14568 107 against 91.5; 2048x2048x8192 88.3 either way; none and 64 within 1% of
/// 128). `DEEPGEMM_L2_PROMOTION` = `none`, `64`, `128` or `256` forces one, for measurements.
/// Read once.
fn operand_l2_promotion(line_bytes: u64) -> CUtensorMapL2promotion {
    use CUtensorMapL2promotion::*;
    static FORCED: once_cell::sync::Lazy<Option<CUtensorMapL2promotion>> =
        once_cell::sync::Lazy::new(|| {
            match std::env::var("DEEPGEMM_L2_PROMOTION")
                .as_deref()
                .map(str::trim)
            {
                Ok("none") => Some(CU_TENSOR_MAP_L2_PROMOTION_NONE),
                Ok("64") => Some(CU_TENSOR_MAP_L2_PROMOTION_L2_64B),
                Ok("128") => Some(CU_TENSOR_MAP_L2_PROMOTION_L2_128B),
                Ok("256") => Some(CU_TENSOR_MAP_L2_PROMOTION_L2_256B),
                _ => None,
            }
        });
    FORCED.unwrap_or(if line_bytes % 128 == 0 {
        CU_TENSOR_MAP_L2_PROMOTION_L2_256B
    } else {
        CU_TENSOR_MAP_L2_PROMOTION_L2_128B
    })
}

/// Encodes a tensor map with the driver. The driver must be initialised (`driver::init`).
pub fn encode(args: &TiledEncode) -> Result<TensorMap> {
    let mut map = TensorMap([0; 16]);
    let r = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `map` is 128 bytes, 64-byte aligned (all the driver requires of the output,
        // whatever alignment the binding's type declares); the arrays hold `rank` (3) extents,
        // box sizes and element strides and `rank - 1` strides; the driver reads them only
        // during the call.
        unsafe {
            sys::cuTensorMapEncodeTiled(
                (&mut map as *mut TensorMap).cast::<sys::CUtensorMap>(),
                args.data_type,
                3,
                args.global_address as *mut c_void,
                args.global_dim.as_ptr(),
                args.global_strides.as_ptr(),
                args.box_dim.as_ptr(),
                args.element_strides.as_ptr(),
                args.interleave,
                args.swizzle,
                args.l2_promotion,
                args.oob_fill,
            )
        }
    }))
    .map_err(|_| {
        Error::NotInitialized(
            "the CUDA driver lacks cuTensorMapEncodeTiled (needs CUDA 12+)".into(),
        )
    })?;
    check(r, "cuTensorMapEncodeTiled")?;
    Ok(map)
}

/// The kernel's SM90_FLAG_TMA_STORE: D's tensor map is valid and D suits the TMA-store epilogue
/// (taken when beta is 0).
pub const FLAG_TMA_STORE: i32 = 4;
/// The kernel's SM90_FLAG_D_ROW_MAJOR: with FLAG_TMA_STORE, D is row-major.
pub const FLAG_D_ROW_MAJOR: i32 = 8;
/// The kernel's SM90_FLAG_C_TMA: with FLAG_TMA_STORE, C's tensor map (D's layout and box) is
/// valid and a beta != 0 takes the TMA-store epilogue, C's boxes loaded by TMA.
pub const FLAG_C_TMA: i32 = 128;
/// The kernel's SM90_FLAG_D_BOXES: with FLAG_TMA_STORE at a width that is not whole 64-column
/// boxes, and without FLAG_C_TMA, the fourth map (C's slot) is D's with whole 64 x 64 boxes
/// (`with_whole_boxes`): the tile's whole boxes are stored through it. The last, partial
/// box goes through D's map: a row-major D's in 16-column slabs (`Sm90Variant::store_box_cols`;
/// not at widths 8 past a multiple of 16: those are not planned for a row-major D,
/// `plan::sm90::row_slabs_of_8`, and get no flag); a column-major D's in one store, D's map
/// then having that box's width (`with_tail_box`).
pub const FLAG_D_BOXES: i32 = 256;
/// The kernel's SM90_FLAG_BIAS_COL: the bias runs along n (`GemmProblem::bias_along_n`).
pub const FLAG_BIAS_COL: i32 = 16;
/// The kernel's SM90_FLAG_STREAM_A and _B: every element of A (B) is loaded once, so the
/// producer marks its lines evict-first in L2 (`stream_flags`).
pub const FLAG_STREAM_A: i32 = 32;
pub const FLAG_STREAM_B: i32 = 64;

/// The most bytes an operand may have and still be streamed. Measured on the H200 (60 MiB of
/// L2, session 12, the bench's memset-flushed L2; streamed against not, deepgemm alone):
/// operands of 29-134 MB 5-11% faster, 235 MB ones 2-5% faster (12h), 470 MB ones 1.5-7%
/// slower (128x28672x8192 on 128x224 tiles: 134 against 125 us). The limit sits between the
/// last two, where what the hint saves (bounded by what L2 holds) stops paying.
pub const STREAM_MAX_BYTES: u64 = 320 << 20;

/// SM90_FLAG_STREAM_A when one tile column covers n (each A tile is loaded by one CTA; a
/// split-K or Stream-K CTA loads only its own k-range of it), SM90_FLAG_STREAM_B when one tile
/// row covers m; not for an operand every batch shares (batch stride 0: each batch re-reads it),
/// nor for one larger than `STREAM_MAX_BYTES` over all batches.
fn stream_flags(tiles_m: i32, tiles_n: i32, p: &GemmProblem) -> i32 {
    let streams = |s: &crate::problem::Strides, rows: u64| {
        let bytes = [p.k, p.batch, p.ab_type.size_bytes() as u64]
            .iter()
            .fold(rows, |x, &y| x.saturating_mul(y));
        (p.batch == 1 || s.batch != 0) && bytes <= STREAM_MAX_BYTES
    };
    let mut flags = 0;
    if tiles_n == 1 && streams(&p.a, p.m) {
        flags |= FLAG_STREAM_A;
    }
    if tiles_m == 1 && streams(&p.b, p.n) {
        flags |= FLAG_STREAM_B;
    }
    flags
}

/// The encode arguments of D's tensor map for the TMA-store epilogue of `v`, D laid out as
/// `layout` at device address `address` (`plan::sm90::tma_store` decides both).
/// NOT_SUPPORTED when the variant does not take `p` or the layout does not fit D.
pub fn encode_store_args(
    v: &Sm90Variant,
    p: &GemmProblem,
    layout: StoreLayout,
    address: u64,
) -> Result<TiledEncode> {
    encode_store_args_with(v, p, layout, address, false)
}

/// As `encode_store_args`; `padded` (D is deepgemm's aligned copy, `plan_sm90::tma_store_with`):
/// the map spans whole padded lines, so TMA's 16-byte units never cross the extent.
pub fn encode_store_args_with(
    v: &Sm90Variant,
    p: &GemmProblem,
    layout: StoreLayout,
    address: u64,
    padded: bool,
) -> Result<TiledEncode> {
    v.check(p)
        .map_err(|why| unsupported!("{} cannot run this problem: {why}", v.name()))?;
    let actual = plan_sm90::tma_store_with(p, address, Scalar::Host(0.0), padded)
        .map_err(|why| unsupported!("TMA store: {why}"))?;
    if actual != layout {
        return Err(unsupported!("D is {actual:?}, not {layout:?}"));
    }
    let elem = p.cd_type.size_bytes() as u64;
    let (ld, inner, outer) = layout.dims(p);
    let inner = if padded { ld as u64 } else { inner };
    let line_bytes = ld as u64 * elem;
    // As for A and B: with one batch any legal stride will do.
    let batch_bytes = if p.batch > 1 {
        p.d.batch as u64 * elem
    } else {
        outer
            .checked_mul(line_bytes)
            .filter(|&b| b < TMA_MAX_STRIDE)
            .ok_or_else(|| unsupported!("D spans 2^40 bytes or more"))?
    };
    let data_type = match p.cd_type {
        ScalarType::BF16 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        ScalarType::F16 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        ScalarType::F32 => return Err(unsupported!("fp32 D in the TMA-store epilogue")),
    };
    Ok(TiledEncode {
        data_type,
        global_address: address,
        global_dim: [inner, outer, p.batch],
        global_strides: [line_bytes, batch_bytes],
        // Column-major: 64 rows x the variant's columns per store (whole 128-byte lines);
        // row-major: the variant's columns x 64 rows, i.e. 64-column lines or the 16- and
        // 8-column slabs of kernels/sm90/store.cuh.
        box_dim: match layout {
            StoreLayout::ColMajor => [STORE_BOX, v.store_box_cols(), 1],
            StoreLayout::RowMajor => [v.store_box_cols(), STORE_BOX, 1],
        },
        element_strides: [1, 1, 1],
        interleave: CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
        // The staging buffers are written with this swizzle (bank-conflict-free stmatrix).
        swizzle: store_swizzle(v, layout),
        l2_promotion: CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_NONE,
        oob_fill: CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
    })
}

/// The swizzle the epilogue writes D's staging with (kernels/sm90/store.cuh): 128 bytes for
/// 128-byte lines (every column-major box, row-major whole boxes); a row-major slab's line is
/// 32 bytes (16 columns, 32-byte swizzle) or 16 (8 columns, none).
fn store_swizzle(v: &Sm90Variant, layout: StoreLayout) -> CUtensorMapSwizzle {
    match (layout, v.store_box_cols()) {
        (StoreLayout::ColMajor, _) | (StoreLayout::RowMajor, STORE_BOX) => {
            CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B
        }
        (StoreLayout::RowMajor, 16) => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_32B,
        (StoreLayout::RowMajor, _) => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_NONE,
    }
}

/// `args` (a store map's, `encode_store_args_with`) with whole 64 x 64 boxes in the 128-byte
/// swizzle: what a staging buffer holds at a width of whole boxes, in either layout.
fn with_whole_boxes(mut args: TiledEncode) -> TiledEncode {
    args.box_dim = [STORE_BOX, STORE_BOX, 1];
    args.swizzle = CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B;
    args
}

/// `args` (a column-major D's store map) with the box of a tile's last, partial box: 64 rows x
/// `epilogue_n % 64` columns (a column-split consumer's half), the first lines of a staging
/// buffer (FLAG_D_BOXES).
/// A column-major D's map is already in the 128-byte swizzle (`store_swizzle`).
fn with_tail_box(mut args: TiledEncode, v: &Sm90Variant) -> TiledEncode {
    args.box_dim = [STORE_BOX, v.epilogue_n() % STORE_BOX, 1];
    args
}

/// The encode arguments of D's whole-box map for a row-major D whose tiles end in slabs
/// (FLAG_D_BOXES): D's map (`encode_store_args_with`) with whole boxes. `Sm90Args::new_with`
/// derives it from D's map's arguments instead of checking the problem twice.
pub fn encode_store_box_args(
    v: &Sm90Variant,
    p: &GemmProblem,
    address: u64,
    padded: bool,
) -> Result<TiledEncode> {
    encode_store_args_with(v, p, StoreLayout::RowMajor, address, padded).map(with_whole_boxes)
}

/// The encode arguments of C's tensor map for the TMA-store epilogue's C loads (FLAG_C_TMA):
/// D's map (`encode_store_args`: layout, box, swizzle) with C's address, leading dimension and
/// batch stride. NOT_SUPPORTED when `plan::sm90::c_tma` refuses C.
pub fn encode_c_args(
    v: &Sm90Variant,
    p: &GemmProblem,
    layout: StoreLayout,
    address: u64,
) -> Result<TiledEncode> {
    plan_sm90::c_tma(p, address, layout).map_err(|why| unsupported!("C through TMA: {why}"))?;
    // D's map of a problem whose D has C's strides (the same extents and checks), with whole
    // 64 x 64 boxes where the staging buffer's lines are 64 values whatever the stores' width
    // (one load fills a buffer); a row-major D's slabs keep D's box, one load a slab
    // (kernels/sm90/store.cuh `load_c_box`).
    let mut c_as_d = *p;
    c_as_d.d = p.c;
    let args = encode_store_args_with(v, &c_as_d, layout, address, false)?;
    let row_slabs = layout == StoreLayout::RowMajor && v.store_box_cols() != STORE_BOX;
    Ok(if row_slabs {
        args
    } else {
        with_whole_boxes(args)
    })
}

/// A divisor prepared for the kernel's division by multiply and shift (`dg_sm90::FastDiv`,
/// kernels/sm90/types.cuh): for 0 <= x < 2^31 and 1 <= d < 2^31,
/// `x / d == (umulhi(x, mul) + x) >> shift` with shift = ceil(log2 d) (Granlund-Montgomery).
/// A hardware-less integer division cost the kernel ~25 dependent instructions on the path
/// from its entry to its first load.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FastDiv {
    pub mul: u32,
    pub shift: u32,
}

impl FastDiv {
    /// `d` is clamped to [1, 2^31 - 1].
    pub fn new(d: u32) -> FastDiv {
        let d = d.clamp(1, i32::MAX as u32) as u64;
        let shift = 64 - (d - 1).leading_zeros();
        let mul = (((1u64 << 32) * ((1u64 << shift) - d)) / d + 1) as u32;
        FastDiv { mul, shift }
    }

    /// What the kernel computes, for 0 <= x < 2^31.
    pub fn div(&self, x: u32) -> u32 {
        let hi = ((x as u64 * self.mul as u64) >> 32) as u32;
        (hi + x) >> self.shift
    }
}

/// The kernel's `dg_sm90::Sm90Params` (kernels/sm90/types.cuh), field for field: 8-byte
/// fields first, then 4-byte ones, so the C and Rust layouts agree without padding rules.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sm90Params {
    /// May alias `d`; not read when beta == 0.
    pub c: u64,
    pub d: u64,
    pub bias: u64,
    /// Non-zero in pointer mode DEVICE: the kernel reads alpha there instead of `alpha`.
    pub alpha_ptr: u64,
    pub beta_ptr: u64,
    /// Stream-K fixup workspace (flags, then partial tiles); 0 when `sk_tiles` is 0.
    pub workspace: u64,
    pub m: i64,
    pub n: i64,
    pub k: i64,
    pub batch: i64,
    /// C(i, j) of batch b is c[b*c_bs + i*c_ms + j*c_ns]; likewise D.
    pub c_ms: i64,
    pub c_ns: i64,
    pub c_bs: i64,
    pub d_ms: i64,
    pub d_ns: i64,
    pub d_bs: i64,
    pub bias_bs: i64,
    /// Tiles of the Stream-K phase (`plan::sm90::Decomposition`); 0: data-parallel only.
    pub sk_tiles: i64,
    /// The launch's tag for the Stream-K flags (`next_epoch`; kernels/sm90/types.cuh).
    pub epoch: u64,
    pub alpha: f32,
    pub beta: f32,
    /// `Activation as i32`.
    pub activation: i32,
    /// FLAG_BIAS | FLAG_BIAS_F32 (crate::jit::params) | FLAG_TMA_STORE | FLAG_D_ROW_MAJOR, the
    /// kernel's SM90_FLAG_*.
    pub flags: i32,
    /// Tile rows per L2 group of the scheduler.
    pub group_m: i32,
    /// CTAs sharing the Stream-K phase (>= 1 when `sk_tiles` > 0).
    pub sk_ctas: i32,
    /// The scheduler's tile counts (`set_tiles`): tile rows (of block_m x cluster_m rows),
    /// tile columns, tiles per batch, all tiles, k-iterations per tile.
    pub tiles_m: i32,
    pub tiles_n: i32,
    pub tiles_per_batch: i32,
    pub num_tiles: i32,
    pub k_iters: i32,
    /// Stream-K iterations per CTA, `sk_tiles * k_iters / sk_ctas`, and the remainder (the
    /// first `sk_rem` CTAs take one more; `set_decomposition`).
    pub sk_base: i32,
    pub sk_rem: i32,
    pub pad: i32,
    /// Divisors of the scheduler: k_iters, tiles_per_batch, group_m x tiles_n (tiles per
    /// group), group_m, and the last group's tile rows.
    pub div_k_iters: FastDiv,
    pub div_tiles_per_batch: FastDiv,
    pub div_group: FastDiv,
    pub div_group_m: FastDiv,
    pub div_last_rows: FastDiv,
}

pub const SM90_PARAMS_SIZE: usize = 6 * 8 + 13 * 8 + 6 * 4 + 8 * 4 + 5 * 8;
const _: () = assert!(std::mem::size_of::<Sm90Params>() == SM90_PARAMS_SIZE);

impl Sm90Params {
    /// The parameter block of one launch. The TMA-store flags follow `plan::sm90::tma_store`;
    /// `Sm90Args::new` encodes D's tensor map exactly when FLAG_TMA_STORE is set.
    pub fn new(p: &GemmProblem, ptrs: &GemmPointers, group_m: u32) -> Sm90Params {
        Self::new_with(p, ptrs, group_m, false, Some(STORE_BOX))
    }

    /// As `new`; `padded_d`: D is deepgemm's aligned copy in the workspace
    /// (`plan_sm90::tma_store_with`); `store_cols`: the variant's columns per TMA store
    /// (`Sm90Variant::store_box_cols`), `None` without the TMA-store epilogue (the narrow
    /// tiles have only the general one); below STORE_BOX only column-major D takes it.
    pub fn new_with(
        p: &GemmProblem,
        ptrs: &GemmPointers,
        group_m: u32,
        padded_d: bool,
        store_cols: Option<u32>,
    ) -> Sm90Params {
        let mut flags = bias_flags(p);
        if p.epilogue.bias && p.bias_along_n {
            flags |= FLAG_BIAS_COL;
        }
        if let Some(cols) = store_cols {
            // D's layout as TMA stores it, whatever beta; then beta decides: 0 (or a device
            // scalar, which the kernel checks) needs nothing more, a host beta != 0 needs C's
            // map. The kernel takes C's map whenever beta != 0 and FLAG_C_TMA is set.
            let (layout, c_ok) = plan_sm90::store_flags(p, ptrs, padded_d, cols);
            match layout {
                Some(StoreLayout::ColMajor) => flags |= FLAG_TMA_STORE,
                Some(StoreLayout::RowMajor) => flags |= FLAG_TMA_STORE | FLAG_D_ROW_MAJOR,
                None => {}
            }
            if c_ok {
                flags |= FLAG_C_TMA;
            } else if match layout {
                Some(StoreLayout::RowMajor) => cols == 16,
                Some(StoreLayout::ColMajor) => cols != STORE_BOX,
                None => false,
            } {
                flags |= FLAG_D_BOXES;
            }
        }
        let (alpha, alpha_ptr) = ptrs.alpha.split();
        let (beta, beta_ptr) = ptrs.beta.split();
        Sm90Params {
            c: ptrs.c,
            d: ptrs.d,
            bias: if p.epilogue.bias { ptrs.bias } else { 0 },
            alpha_ptr,
            beta_ptr,
            workspace: 0,
            m: p.m as i64,
            n: p.n as i64,
            k: p.k as i64,
            batch: p.batch as i64,
            c_ms: p.c.row,
            c_ns: p.c.col,
            c_bs: p.c.batch,
            d_ms: p.d.row,
            d_ns: p.d.col,
            d_bs: p.d.batch,
            bias_bs: p.bias_batch_stride,
            sk_tiles: 0,
            epoch: 0,
            alpha,
            beta,
            activation: p.epilogue.activation as i32,
            flags,
            group_m: group_m.clamp(1, i32::MAX as u32) as i32,
            sk_ctas: 0,
            ..Default::default()
        }
    }

    /// The scheduler's counts and divisors for variant `v` (its tile, cluster and k-depth) on
    /// `p`, as the kernel's TileScheduler and WorkSchedule use them, and the L2 streaming
    /// flags that follow from the tile counts (`stream_flags`). `Sm90Variant::check`
    /// keeps tiles x k-iterations below 2^31.
    pub fn set_tiles(&mut self, v: &Sm90Variant, p: &GemmProblem) {
        let c32 = |x: u64| x.min(i32::MAX as u64) as i32;
        let (blocks_m, blocks_n) = v.tile_blocks(p);
        self.tiles_m = c32(blocks_m.max(1));
        self.tiles_n = c32(blocks_n.max(1));
        self.tiles_per_batch = c32(self.tiles_m as u64 * self.tiles_n as u64);
        self.num_tiles = c32(self.tiles_per_batch as u64 * p.batch);
        self.k_iters = c32(p.k.div_ceil(v.block_k as u64).max(1));
        let group_m = self.group_m.max(1);
        let groups = (self.tiles_m + group_m - 1) / group_m;
        self.div_k_iters = FastDiv::new(self.k_iters as u32);
        self.div_tiles_per_batch = FastDiv::new(self.tiles_per_batch as u32);
        self.div_group = FastDiv::new(c32(group_m as u64 * self.tiles_n as u64) as u32);
        self.div_group_m = FastDiv::new(group_m as u32);
        self.div_last_rows = FastDiv::new((self.tiles_m - (groups - 1) * group_m) as u32);
        self.flags = (self.flags & !(FLAG_STREAM_A | FLAG_STREAM_B))
            | stream_flags(self.tiles_m, self.tiles_n, p);
        self.set_stream_k_ranges();
    }

    /// Linear tile `t` -> (m_tile, n_tile, batch) as the kernel's `TileScheduler::coord` computes
    /// it from these fields (no division), for the tests against `plan::sm90::tile_coords`.
    pub fn tile_coord(&self, t: u32) -> (u32, u32, u32) {
        let per_batch = self.tiles_per_batch as u32;
        let batch = if t < per_batch {
            0
        } else {
            self.div_tiles_per_batch.div(t)
        };
        let r = t - batch * per_batch;
        let group = self.div_group.div(r);
        let group_m = self.group_m as u32;
        let first_m = group * group_m;
        let last = (self.tiles_m as u32) - first_m < group_m;
        let (rows, div_rows) = if last {
            ((self.tiles_m as u32) - first_m, self.div_last_rows)
        } else {
            (group_m, self.div_group_m)
        };
        let local = r - group * group_m * self.tiles_n as u32;
        let n_tile = div_rows.div(local);
        (first_m + local - n_tile * rows, n_tile, batch)
    }

    /// `sk_base` and `sk_rem` from `sk_tiles`, `sk_ctas` and `k_iters`.
    fn set_stream_k_ranges(&mut self) {
        let total = self.sk_tiles.max(0) * self.k_iters as i64;
        let ctas = self.sk_ctas.max(1) as i64;
        self.sk_base = (total / ctas).min(i32::MAX as i64) as i32;
        self.sk_rem = (total % ctas) as i32;
    }

    /// A cluster launch holds at most `units` clusters at once (`max_active_clusters`): Stream-K
    /// ranges planned for more clusters are re-dealt among `units` (the same tiles, fewer and
    /// longer ranges; the workspace planned for more suffices where the planned ranges already
    /// split tiles), so that every range's cluster runs. Ranges planned as whole tiles (a forced
    /// Stream-K or split-K schedule whose units each took whole tiles: no partials, no
    /// workspace, `streamk::Decomposition::workspace_bytes`) that would split tiles once
    /// re-dealt become the data-parallel schedule instead, which takes any number of clusters
    /// and needs no workspace (a review found the re-dealt partials written through a null
    /// or too small workspace there). Nothing changes for 0 (the launch is refused then) or a
    /// schedule without Stream-K.
    pub fn limit_stream_k_units(&mut self, units: u32) {
        if self.sk_tiles > 0 && units > 0 && self.sk_ctas > units as i32 {
            let whole_tiles = |q: &Sm90Params| q.sk_rem == 0 && q.sk_base % q.k_iters.max(1) == 0;
            let planned_whole = whole_tiles(self);
            self.sk_ctas = units as i32;
            self.set_stream_k_ranges();
            if planned_whole && !whole_tiles(self) {
                self.sk_tiles = 0;
                self.sk_ctas = 0;
                self.set_stream_k_ranges();
                self.workspace = 0;
                self.epoch = 0;
            }
        }
    }

    /// Switches the launch to decomposition `d`, with its Stream-K workspace (if it needs one)
    /// at device address `workspace`, and a fresh flag tag (`next_epoch`): the flags need no
    /// clearing before the launch.
    pub fn set_decomposition(&mut self, d: &crate::plan::streamk::Decomposition, workspace: u64) {
        self.sk_tiles = d.sk_tiles as i64;
        self.sk_ctas = d.sk_ctas as i32;
        self.set_stream_k_ranges();
        self.workspace = if d.sk_tiles > 0 { workspace } else { 0 };
        self.epoch = if d.sk_tiles > 0 { next_epoch() } else { 0 };
    }
}

/// A tag for one launch's Stream-K flags: never 0 (a cleared flag), never repeated in the process
/// (a 64-bit counter), and starting from a per-process random point, so a flag left in a
/// workspace by another process or library equals it with probability 2^-64. A flag left by an
/// earlier launch, or by the same launch replayed from a CUDA graph, was cleared by its owner.
pub fn next_epoch() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: once_cell::sync::Lazy<AtomicU64> = once_cell::sync::Lazy::new(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let seed = t ^ (std::process::id() as u64).rotate_left(32) ^ (&NEXT as *const _ as u64);
        // splitmix64: spread the seed's few varying bits over the word.
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        AtomicU64::new(z ^ (z >> 31))
    });
    loop {
        let e = NEXT.fetch_add(1, Ordering::Relaxed);
        if e != 0 {
            return e;
        }
    }
}

/// Everything one launch passes to the kernel, kept together so the argument pointers stay
/// valid until `cuLaunchKernel` has copied them.
#[derive(Clone, Copy, Debug)]
pub struct Sm90Args {
    pub params: Sm90Params,
    pub tmap_a: TensorMap,
    pub tmap_b: TensorMap,
    /// D's map when `params.flags` has FLAG_TMA_STORE, else zeros (never read).
    pub tmap_d: TensorMap,
    /// C's map when `params.flags` has FLAG_C_TMA, D's whole-box map when it has FLAG_D_BOXES,
    /// else zeros (never read).
    pub tmap_c: TensorMap,
}

impl Sm90Args {
    /// Builds the parameter block and encodes the tensor maps (one driver call each: A, B, D
    /// when the TMA-store epilogue applies, and C when it also loads C, or else D's whole-box
    /// map for a row-major D in slabs).
    pub fn new(
        v: &Sm90Variant,
        p: &GemmProblem,
        ptrs: &GemmPointers,
        group_m: u32,
    ) -> Result<Sm90Args> {
        Self::new_with(v, p, ptrs, group_m, false)
    }

    /// As `new`; `padded_d`: D is deepgemm's aligned copy in the workspace.
    pub fn new_with(
        v: &Sm90Variant,
        p: &GemmProblem,
        ptrs: &GemmPointers,
        group_m: u32,
        padded_d: bool,
    ) -> Result<Sm90Args> {
        // `DEEPGEMM_TMA_STORE=0` (measurements): the general epilogue, where it is complete
        // (not for a bias along n on tiles over 64 wide, which only the TMA store adds).
        let general_only = !(tma_store_allowed() || p.epilogue.bias && p.bias_along_n);
        let store_cols = if general_only {
            None
        } else {
            v.tma_store_cols(p)
        };
        let mut params = Sm90Params::new_with(p, ptrs, group_m, padded_d, store_cols);
        params.set_tiles(v, p);
        // D's layout, which C's map shares.
        let layout = if params.flags & FLAG_D_ROW_MAJOR != 0 {
            StoreLayout::RowMajor
        } else {
            StoreLayout::ColMajor
        };
        let d_args = if params.flags & FLAG_TMA_STORE != 0 {
            Some(encode_store_args_with(v, p, layout, ptrs.d, padded_d)?)
        } else {
            None
        };
        let d_boxes = params.flags & FLAG_D_BOXES != 0;
        let tmap_d = match &d_args {
            // A column-major D's tiles store their whole boxes through the fourth map and their
            // last box through this one, in one store.
            Some(args) if d_boxes && layout == StoreLayout::ColMajor => {
                encode(&with_tail_box(*args, v))?
            }
            Some(args) => encode(args)?,
            None => TensorMap([0; 16]),
        };
        // FLAG_D_BOXES comes with FLAG_TMA_STORE: D's whole-box map is D's map re-boxed
        // (`encode_store_box_args`).
        let tmap_c = match d_args {
            _ if params.flags & FLAG_C_TMA != 0 => encode(&encode_c_args(v, p, layout, ptrs.c)?)?,
            Some(args) if d_boxes => encode(&with_whole_boxes(args))?,
            _ => TensorMap([0; 16]),
        };
        Ok(Sm90Args {
            params,
            tmap_a: encode(&encode_args(v, p, Operand::A, ptrs.a)?)?,
            tmap_b: encode(&encode_args(v, p, Operand::B, ptrs.b)?)?,
            tmap_d,
            tmap_c,
        })
    }

    pub fn launch_args(&mut self) -> [*mut c_void; 5] {
        launch_args(
            &mut self.params,
            &mut self.tmap_a,
            &mut self.tmap_b,
            &mut self.tmap_d,
            &mut self.tmap_c,
        )
    }
}

/// The `kernelParams` array of `cuLaunchKernel` for the entry `NAME(Sm90Params params,
/// CUtensorMap tmap_a, CUtensorMap tmap_b, CUtensorMap tmap_d, CUtensorMap tmap_c)`: one
/// pointer per argument, in order. The pointers borrow the five objects, which must outlive the
/// launch call.
pub fn launch_args(
    params: &mut Sm90Params,
    tmap_a: &mut TensorMap,
    tmap_b: &mut TensorMap,
    tmap_d: &mut TensorMap,
    tmap_c: &mut TensorMap,
) -> [*mut c_void; 5] {
    [
        (params as *mut Sm90Params).cast(),
        (tmap_a as *mut TensorMap).cast(),
        (tmap_b as *mut TensorMap).cast(),
        (tmap_d as *mut TensorMap).cast(),
        (tmap_c as *mut TensorMap).cast(),
    ]
}

/// Lets `function` (a loaded sm90 variant `v`) use its dynamic shared memory, which is above the
/// default 48 KiB limit. Once per loaded function, before its first launch.
///
/// # Safety
/// `function` must be a live function handle of variant `v` in the current context.
pub unsafe fn configure_function(function: CUfunction, v: &Sm90Variant) -> Result<()> {
    // SAFETY: per the caller's contract; the attribute value is in range for the device
    // (`fits_device` bounds it by the opt-in shared memory).
    check(
        unsafe {
            sys::cuFuncSetAttribute(
                function,
                CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                v.smem_bytes() as i32,
            )
        },
        "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)",
    )?;
    // The whole unified L1 as shared memory, so a solo variant's two CTAs fit an SM (see
    // runtime::registry's load).
    // SAFETY: as above; 100 is CU_SHAREDMEM_CARVEOUT_MAX_SHARED.
    check(
        unsafe {
            sys::cuFuncSetAttribute(
                function,
                CUfunction_attribute::CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                100,
            )
        },
        "cuFuncSetAttribute(PREFERRED_SHARED_MEMORY_CARVEOUT)",
    )
}

/// `DEEPGEMM_TMA_STORE=0` sends every sm90 launch through the general (staged) epilogue where
/// that epilogue is complete, for timing the two against each other; anything else (or unset):
/// the TMA-store epilogue wherever D allows it. Read once.
fn tma_store_allowed() -> bool {
    static ON: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_TMA_STORE").map_or(true, |v| v.trim() != "0")
    });
    *ON
}

/// Programmatic dependent launch for the sm90 kernels: `DEEPGEMM_PDL` = `0` turns it off
/// (measurements); otherwise on where the driver is CUDA 12.3 or newer (programmatic edges in
/// captured graphs). The kernel waits (`griddep_wait`, kernels/ptx/griddep.cuh) before its first
/// global access, so its prologue may overlap the previous kernel on the stream.
fn pdl_wanted() -> bool {
    static WANTED: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
        if !pdl_env_allows(std::env::var("DEEPGEMM_PDL").ok().as_deref()) {
            return false;
        }
        crate::runtime::driver::driver_version() >= PDL_MIN_DRIVER
    });
    *WANTED && !PDL_REFUSED.load(std::sync::atomic::Ordering::Relaxed)
}

/// The first driver version whose stream capture records programmatic launches as graph edges.
const PDL_MIN_DRIVER: i32 = 12030;

/// Set once a launch with the attribute was refused as invalid: later launches go without it.
static PDL_REFUSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `DEEPGEMM_PDL`'s value allows programmatic dependent launch: anything but `0` (unset: on).
fn pdl_env_allows(value: Option<&str>) -> bool {
    value.map(str::trim) != Some("0")
}

/// Enqueues one launch of variant `v` on `stream` with a persistent grid of `grid` CTAs;
/// `pdl`: it may start under the stream's previous kernel (where `pdl_wanted` allows).
///
/// # Safety
/// `function` must be variant `v`, loaded for the current context's device and allowed its
/// dynamic shared memory (the registry's per-device kernel attributes, or
/// `configure_function` for a function of a module); `args` must describe device memory that stays valid until the kernel
/// finishes; `stream` must belong to the current context (or be NULL / a special handle).
pub unsafe fn launch(
    function: CUfunction,
    v: &Sm90Variant,
    grid: u32,
    stream: CUstream,
    args: &mut Sm90Args,
    pdl: bool,
) -> Result<()> {
    let mut grid = grid.max(1);
    if v.cluster_size() > 1 {
        let cm = v.cluster_size();
        let resident = max_active_clusters(function, v, stream);
        if resident == 0 {
            return Err(unsupported!(
                "{}: the device cannot hold a cluster of {cm} of these CTAs",
                v.name()
            ));
        }
        // A multicast cluster is one Stream-K unit: ranges planned for clusters the device
        // cannot hold at once would never run while their owners wait for them.
        args.params.limit_stream_k_units(resident);
        // The kernel's data-parallel schedule takes any number of clusters; a persistent grid
        // must be resident.
        let clusters = grid.div_ceil(cm).clamp(1, resident);
        if crate::log::enabled(crate::log::Level::Hints) {
            crate::log::hint(
                "deepgemmLtMatmul",
                format!(
                    "{}: {clusters} clusters of {cm} ({resident} resident at most; {grid} CTAs planned)",
                    v.name()
                ),
            );
        }
        grid = clusters * cm;
    }
    // A ring-epilogue kernel stages its epilogue in the ring's first stages, which a second
    // tile's loads would overwrite while they are stored: it runs one data-parallel tile a CTA
    // (the planner only lists it so, `streamk::decompositions`). Refused rather than wrong.
    if v.ring_epilogue && (args.params.sk_tiles != 0 || args.params.num_tiles as u64 > grid as u64)
    {
        return Err(crate::error::Error::Internal(format!(
            "{}: a ring-epilogue kernel needs one data-parallel tile a CTA ({} tiles, {grid} \
             CTAs, {} Stream-K tiles)",
            v.name(),
            args.params.num_tiles,
            args.params.sk_tiles
        )));
    }
    // The tall and column-split tiles have no Stream-K fixup (kernels/sm90/gemm.cuh skips it
    // for them): a CTA sharing a tile would store its partial sum as the tile. The planner
    // lists them data-parallel only (`streamk::decompositions`); refused here too (a review,
    // session 78), as the ring epilogue is.
    if (v.tall() || v.column_split()) && args.params.sk_tiles != 0 {
        return Err(crate::error::Error::Internal(format!(
            "{}: tall and column-split tiles run data-parallel only ({} Stream-K tiles)",
            v.name(),
            args.params.sk_tiles
        )));
    }
    let mut kernel_args = args.launch_args();
    // SAFETY: the entry takes exactly (Sm90Params, CUtensorMap x 4) by value and
    // `kernel_args` points at those five objects, alive for this call; the rest is the
    // caller's contract.
    let r = enqueue_pdl(
        pdl,
        || v.name(),
        |pdl| unsafe { launch_ex(function, v, grid, stream, &mut kernel_args, pdl) },
    );
    if r == CUresult::CUDA_SUCCESS {
        // The name is only for the error: formatting it cost ~0.3 us of CPU on every call.
        return Ok(());
    }
    check(r, &format!("launching {}", v.name()))
}

/// `enqueue(pdl)` with programmatic dependent launch where `pdl` and `pdl_wanted` allow it; a
/// driver that refuses the attribute (invalid / not supported) gets the launch again without
/// it, and no later launch asks again (logged, naming the kernel by `what`).
fn enqueue_pdl(
    pdl: bool,
    what: impl Fn() -> String,
    enqueue: impl FnMut(bool) -> CUresult,
) -> CUresult {
    enqueue_pdl_with(pdl && pdl_wanted(), &PDL_REFUSED, what, enqueue)
}

/// `enqueue_pdl`'s decision with the wish and the process's switch as arguments (tests). PDL
/// is turned off for good only when the launch without the attribute then succeeds: a launch
/// refused for another reason (a bad argument, too much shared memory) fails the same way
/// without it, and says nothing about the attribute.
fn enqueue_pdl_with(
    pdl: bool,
    refused: &std::sync::atomic::AtomicBool,
    what: impl Fn() -> String,
    mut enqueue: impl FnMut(bool) -> CUresult,
) -> CUresult {
    let r = enqueue(pdl);
    if pdl
        && matches!(
            r,
            CUresult::CUDA_ERROR_INVALID_VALUE | CUresult::CUDA_ERROR_NOT_SUPPORTED
        )
    {
        let without = enqueue(false);
        if without == CUresult::CUDA_SUCCESS {
            refused.store(true, std::sync::atomic::Ordering::Relaxed);
            crate::log::error(
                "deepgemmLtMatmul",
                format!(
                    "{}: programmatic dependent launch refused ({r:?}); launching without it \
                     from now on",
                    what()
                ),
            );
        }
        return without;
    }
    r
}

/// The programmatic-stream-serialisation attribute (the launch may overlap its predecessor).
fn pdl_attribute() -> sys::CUlaunchAttribute {
    // SAFETY: an all-zero attribute is a valid value of this plain C struct/union.
    let mut attr: sys::CUlaunchAttribute = unsafe { std::mem::zeroed() };
    attr.id = sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attr.value.programmaticStreamSerializationAllowed = 1;
    attr
}

/// Enqueues `grid` x `block` threads of a kernel without dynamic shared memory (the pack
/// kernel), programmatically where `pdl` (the call's GEMM is a Hopper launch, so the device
/// takes it) and `DEEPGEMM_PDL` allows: the kernel must then wait (`griddep_wait`) before its
/// first global access. `what` names the kernel in errors.
///
/// # Safety
/// `function` is a kernel loaded in the current context whose parameters `kernel_args` points
/// at (alive for the call); `stream` belongs to the current context (or is NULL).
pub unsafe fn launch_plain(
    function: CUfunction,
    grid: u32,
    block: u32,
    stream: CUstream,
    kernel_args: *mut *mut c_void,
    pdl: bool,
    what: &str,
) -> Result<()> {
    let r = enqueue_pdl(
        pdl,
        || what.to_string(),
        |pdl| {
            let mut attr = pdl_attribute();
            let config = sys::CUlaunchConfig {
                gridDimX: grid.max(1),
                gridDimY: 1,
                gridDimZ: 1,
                blockDimX: block,
                blockDimY: 1,
                blockDimZ: 1,
                sharedMemBytes: 0,
                hStream: stream,
                attrs: if pdl { &mut attr } else { std::ptr::null_mut() },
                numAttrs: pdl as u32,
            };
            // SAFETY: `config` and `attr` live for the call; the rest is the caller's contract.
            unsafe { sys::cuLaunchKernelEx(&config, function, kernel_args, std::ptr::null_mut()) }
        },
    );
    if r == CUresult::CUDA_SUCCESS {
        return Ok(());
    }
    check(r, &format!("launching {what}"))
}

/// cuLaunchKernelEx of `grid` CTAs (a multiple of the cluster) with the cluster dimension where
/// `v` has clusters and programmatic stream serialisation where `pdl`.
///
/// # Safety
/// As `launch`; `kernel_args` points at the five kernel arguments.
unsafe fn launch_ex(
    function: CUfunction,
    v: &Sm90Variant,
    grid: u32,
    stream: CUstream,
    kernel_args: &mut [*mut c_void; 5],
    pdl: bool,
) -> CUresult {
    let mut attrs = launch_attributes(v, pdl);
    let config = launch_config(v, grid, stream, &mut attrs);
    // SAFETY: `config` and the attributes it points at live for the call; the rest is the
    // caller's contract.
    unsafe {
        sys::cuLaunchKernelEx(
            &config,
            function,
            kernel_args.as_mut_ptr(),
            std::ptr::null_mut(),
        )
    }
}

/// Clusters of `v.cluster_size()` CTAs the device can hold at once for `function`, per function
/// (queried once: ~1 us of driver time). 0 when the query fails, which is asked again next
/// time (a transient failure cached would refuse the variant for the process: a review).
fn max_active_clusters(function: CUfunction, v: &Sm90Variant, stream: CUstream) -> u32 {
    use std::collections::HashMap;
    static CACHE: once_cell::sync::Lazy<parking_lot::Mutex<HashMap<usize, u32>>> =
        once_cell::sync::Lazy::new(|| parking_lot::Mutex::new(HashMap::new()));
    let key = function as usize;
    if let Some(&n) = CACHE.lock().get(&key) {
        return n;
    }
    let mut attrs = launch_attributes(v, false);
    let config = launch_config(v, v.cluster_size(), stream, &mut attrs);
    let mut n = 0i32;
    // SAFETY: `config` and its attribute live for the call; `function` is loaded in the
    // current context (the caller's contract).
    let r = unsafe { sys::cuOccupancyMaxActiveClusters(&mut n, function, &config) };
    if r != CUresult::CUDA_SUCCESS {
        return 0;
    }
    let n = n.max(0) as u32;
    CACHE.lock().insert(key, n);
    n
}

/// A launch's attributes: the cluster dimension (clustered variants) and programmatic stream
/// serialisation (`pdl`), packed at the front; the count is the second value.
fn launch_attributes(v: &Sm90Variant, pdl: bool) -> ([sys::CUlaunchAttribute; 2], u32) {
    // SAFETY: an all-zero attribute is a valid value of this plain C struct/union.
    let mut attrs: [sys::CUlaunchAttribute; 2] = unsafe { std::mem::zeroed() };
    let mut n = 0;
    if v.cluster_size() > 1 {
        attrs[n].id = sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        attrs[n].value.clusterDim.x = v.cluster_size();
        attrs[n].value.clusterDim.y = 1;
        attrs[n].value.clusterDim.z = 1;
        n += 1;
    }
    if pdl {
        attrs[n] = pdl_attribute();
        n += 1;
    }
    (attrs, n as u32)
}

/// The launch configuration of `grid` CTAs of `v` with `attrs` (from `launch_attributes`),
/// which must outlive every use of the result.
fn launch_config(
    v: &Sm90Variant,
    grid: u32,
    stream: CUstream,
    attrs: &mut ([sys::CUlaunchAttribute; 2], u32),
) -> sys::CUlaunchConfig {
    sys::CUlaunchConfig {
        gridDimX: grid,
        gridDimY: 1,
        gridDimZ: 1,
        blockDimX: v.threads(),
        blockDimY: 1,
        blockDimZ: 1,
        sharedMemBytes: v.smem_bytes() as u32,
        hStream: stream,
        attrs: if attrs.1 == 0 {
            std::ptr::null_mut()
        } else {
            attrs.0.as_mut_ptr()
        },
        numAttrs: attrs.1,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn pdl_is_turned_off_only_when_the_launch_without_it_succeeds() {
        use super::{CUresult, enqueue_pdl_with};
        use std::sync::atomic::{AtomicBool, Ordering};
        let name = || "k".to_string();
        // (result with PDL, result without) -> (returned, launches, PDL off after)
        let cases = [
            (
                CUresult::CUDA_SUCCESS,
                CUresult::CUDA_SUCCESS,
                CUresult::CUDA_SUCCESS,
                1,
                false,
            ),
            (
                CUresult::CUDA_ERROR_INVALID_VALUE,
                CUresult::CUDA_SUCCESS,
                CUresult::CUDA_SUCCESS,
                2,
                true,
            ),
            (
                CUresult::CUDA_ERROR_NOT_SUPPORTED,
                CUresult::CUDA_SUCCESS,
                CUresult::CUDA_SUCCESS,
                2,
                true,
            ),
            // Refused for another reason: the same error without it, PDL stays on.
            (
                CUresult::CUDA_ERROR_INVALID_VALUE,
                CUresult::CUDA_ERROR_INVALID_VALUE,
                CUresult::CUDA_ERROR_INVALID_VALUE,
                2,
                false,
            ),
            // Other errors are not retried.
            (
                CUresult::CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
                CUresult::CUDA_SUCCESS,
                CUresult::CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
                1,
                false,
            ),
        ];
        for (with, without, want, launches, off) in cases {
            let refused = AtomicBool::new(false);
            let mut n = 0;
            let r = enqueue_pdl_with(true, &refused, name, |pdl| {
                n += 1;
                if pdl { with } else { without }
            });
            assert_eq!(
                (r, n, refused.load(Ordering::Relaxed)),
                (want, launches, off)
            );
        }
        // Not asked for: one launch without the attribute, whatever it returns.
        let refused = AtomicBool::new(false);
        let mut asked = vec![];
        let r = enqueue_pdl_with(false, &refused, name, |pdl| {
            asked.push(pdl);
            CUresult::CUDA_ERROR_INVALID_VALUE
        });
        assert_eq!(
            (r, asked, refused.load(Ordering::Relaxed)),
            (CUresult::CUDA_ERROR_INVALID_VALUE, vec![false], false)
        );
    }

    use super::*;
    use crate::jit::params::{FLAG_BIAS, FLAG_BIAS_F32};
    use crate::plan::sm90::HOPPER_SMEM_BUDGET;
    use crate::problem::{MatrixSpec, OpSpec};
    use crate::types::{Activation, compute_type::*, cuda_data_type::*, epilogue};

    fn variant(ab: ScalarType, cd: ScalarType, bn: u32) -> Sm90Variant {
        Sm90Variant::new(ab, cd, 128, bn, HOPPER_SMEM_BUDGET).unwrap()
    }

    /// TN column-major: A stored k x m (lda), B stored k x n (ldb), C = D m x n (ldc).
    fn tn(m: u64, n: u64, k: u64, lda: i64, ldb: i64, ty: i32) -> (OpSpec, GemmProblem) {
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = 1;
        let a = MatrixSpec::col(ty, k, m, lda);
        let b = MatrixSpec::col(ty, k, n, ldb);
        let c = MatrixSpec::col(ty, m, n, m as i64);
        let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
        (op, p)
    }

    #[test]
    fn pdl_is_on_unless_the_environment_says_0() {
        assert!(pdl_env_allows(None));
        assert!(pdl_env_allows(Some("1")));
        assert!(pdl_env_allows(Some("")));
        assert!(!pdl_env_allows(Some("0")));
        assert!(!pdl_env_allows(Some(" 0 ")));
    }

    #[test]
    fn launch_attributes_pack_cluster_then_pdl() {
        let plain = variant(ScalarType::BF16, ScalarType::BF16, 256);
        let (_, n) = launch_attributes(&plain, false);
        assert_eq!(n, 0);
        let (a2, n2) = launch_attributes(&plain, true);
        assert_eq!(n2, 1);
        assert_eq!(
            a2[0].id,
            sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
        );
        // SAFETY: the union member the id names.
        assert_eq!(
            unsafe { a2[0].value.programmaticStreamSerializationAllowed },
            1
        );
        let clustered = plain.with_cluster(2).unwrap();
        let (c, cn) = launch_attributes(&clustered, true);
        assert_eq!(cn, 2);
        assert_eq!(
            c[0].id,
            sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
        );
        // SAFETY: the union member the id names.
        assert_eq!(unsafe { c[0].value.clusterDim.x }, 2);
        assert_eq!(
            c[1].id,
            sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
        );
    }

    #[test]
    fn stream_k_epochs_are_nonzero_and_fresh() {
        let a: Vec<u64> = (0..1000).map(|_| next_epoch()).collect();
        assert!(a.iter().all(|&e| e != 0));
        let mut s = a.clone();
        s.sort_unstable();
        s.dedup();
        assert_eq!(s.len(), a.len());
        // Only launches that split tiles carry one.
        let v = variant(ScalarType::BF16, ScalarType::BF16, 256);
        let (_, p) = tn(1000, 3000, 4000, 4008, 4000, R_16BF);
        let ptrs = crate::problem::aligned_ptrs();
        let mut params = Sm90Params::new(&p, &ptrs, 16);
        let dp = crate::plan::streamk::Decomposition::data_parallel(
            v.num_tiles(&p),
            &crate::plan::DeviceSpec::H200,
        );
        params.set_decomposition(&dp, 0x9000);
        assert_eq!((params.epoch, params.workspace), (0, 0));
        let sk = crate::plan::streamk::Decomposition {
            sk_tiles: 10,
            sk_ctas: 132,
            grid: 132,
        };
        params.set_decomposition(&sk, 0x9000);
        let first = params.epoch;
        params.set_decomposition(&sk, 0x9000);
        assert!(first != 0 && params.epoch != 0 && params.epoch != first);
    }

    /// Stream-K ranges planned for more clusters than the device holds at once are re-dealt
    /// among those it holds; data-parallel schedules and enough clusters are left alone.
    #[test]
    fn stream_k_units_fit_the_resident_clusters() {
        let (_, p) = tn(1000, 3000, 4000, 4008, 4000, R_16BF);
        let ptrs = crate::problem::aligned_ptrs();
        let mut params = Sm90Params::new(&p, &ptrs, 16);
        params.set_tiles(&variant(ScalarType::BF16, ScalarType::BF16, 256), &p);
        assert_eq!(params.k_iters, 63);
        let sk = crate::plan::streamk::Decomposition {
            sk_tiles: 30,
            sk_ctas: 60,
            grid: 120,
        };
        params.set_decomposition(&sk, 0x9000);
        let total = 30 * params.k_iters as i64;
        params.limit_stream_k_units(60);
        assert_eq!(params.sk_ctas, 60);
        params.limit_stream_k_units(0);
        assert_eq!(
            params.sk_ctas, 60,
            "0: the launch is refused, nothing to fit"
        );
        params.limit_stream_k_units(56);
        assert_eq!(params.sk_ctas, 56);
        assert_eq!(
            params.sk_base as i64 * 56 + params.sk_rem as i64,
            total,
            "every iteration dealt"
        );
        let dp =
            crate::plan::streamk::Decomposition::data_parallel(30, &crate::plan::DeviceSpec::H200);
        params.set_decomposition(&dp, 0);
        params.limit_stream_k_units(10);
        assert_eq!((params.sk_tiles, params.sk_ctas), (0, 0));
        // Ranges planned as whole tiles (60 tiles on 30 units: two each, no partials, no
        // workspace) that 28 units would split: data-parallel instead.
        let whole = crate::plan::streamk::Decomposition {
            sk_tiles: 60,
            sk_ctas: 30,
            grid: 120,
        };
        params.set_decomposition(&whole, 0);
        assert_eq!((params.sk_base % params.k_iters, params.sk_rem), (0, 0));
        params.limit_stream_k_units(28);
        assert_eq!(
            (
                params.sk_tiles,
                params.sk_ctas,
                params.workspace,
                params.epoch
            ),
            (0, 0, 0, 0)
        );
        // ... while re-dealt whole tiles stay Stream-K (60 tiles on 20 units: three each).
        params.set_decomposition(&whole, 0);
        params.limit_stream_k_units(20);
        assert_eq!((params.sk_tiles, params.sk_ctas), (60, 20));
        assert_eq!((params.sk_base, params.sk_rem), (3 * params.k_iters, 0));
    }

    #[test]
    fn fast_division_equals_division() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let max = i32::MAX as u32;
        let mut divisors: Vec<u32> = (1..=300)
            .chain([1 << 20, (1 << 30) + 1, max - 1, max])
            .collect();
        divisors.extend((0..2000).map(|_| (next() % max as u64) as u32 + 1));
        for d in divisors {
            let f = FastDiv::new(d);
            let mut xs: Vec<u32> = vec![0, 1, d - 1, d, d.saturating_add(1).min(max), max - 1, max];
            xs.extend((0..200).map(|_| (next() % (max as u64 + 1)) as u32));
            xs.extend((0..50).map(|_| ((next() % 1000) as u32).saturating_mul(d).min(max)));
            for x in xs {
                assert_eq!(f.div(x), x / d, "{x} / {d}");
            }
        }
        assert_eq!(FastDiv::new(0), FastDiv::new(1));
    }

    #[test]
    fn the_kernels_tile_coordinates_match_the_planners() {
        let ptrs = crate::problem::aligned_ptrs();
        for (m, n, batch) in [
            (1, 1, 1),
            (4096, 4096, 1),
            (1000, 3000, 3),
            (129, 17, 7),
            (8193, 640, 2),
        ] {
            let (_, mut p) = tn(m, n, 4000, 4008, 4000, R_16BF);
            p.batch = batch;
            for (block_n, cluster) in [(256, 1), (128, 2), (16, 1)] {
                let mut v = variant(ScalarType::BF16, ScalarType::BF16, block_n);
                if cluster > 1 {
                    v = v.with_cluster(cluster).unwrap();
                }
                for group_m in [1, 3, 8, 16, 1000] {
                    let mut params = Sm90Params::new(&p, &ptrs, group_m);
                    params.set_tiles(&v, &p);
                    let tm = m.div_ceil(v.block_m as u64 * cluster as u64);
                    let tn = n.div_ceil(block_n as u64);
                    assert_eq!((params.tiles_m, params.tiles_n), (tm as i32, tn as i32));
                    assert_eq!(params.num_tiles as u64, tm * tn * batch);
                    assert_eq!(params.k_iters as u64, 4000u64.div_ceil(v.block_k as u64));
                    for t in 0..params.num_tiles as u32 {
                        let (a, b, c) =
                            crate::plan::sm90::tile_coords(t as u64, tm, tn, group_m as u64);
                        assert_eq!(
                            params.tile_coord(t),
                            (a as u32, b as u32, c as u32),
                            "{t} {m}x{n} g{group_m}"
                        );
                    }
                }
            }
        }
        // The Stream-K ranges: what plan::streamk::Decomposition::range_begin computes.
        let v = variant(ScalarType::BF16, ScalarType::BF16, 256);
        let (_, p) = tn(1000, 3000, 4000, 4008, 4000, R_16BF);
        let mut params = Sm90Params::new(&p, &ptrs, 16);
        params.set_tiles(&v, &p);
        let sk = crate::plan::streamk::Decomposition {
            sk_tiles: 10,
            sk_ctas: 132,
            grid: 132,
        };
        params.set_decomposition(&sk, 0x9000);
        let k_iters = params.k_iters as u64;
        for c in 0..=132u32 {
            let begin = c as u64 * params.sk_base as u64 + (c as u64).min(params.sk_rem as u64);
            assert_eq!(begin, sk.range_begin(c, k_iters));
        }
    }

    #[test]
    fn operands_loaded_once_are_streamed() {
        let ptrs = crate::problem::aligned_ptrs();
        let stream = |m: u64, n: u64, batch: u64, b_batch_stride: Option<i64>, bn: u32| {
            let (_, mut p) = tn(m, n, 4096, 4096, 4096, R_16BF);
            p.batch = batch;
            if let Some(s) = b_batch_stride {
                p.b.batch = s;
            }
            let v = variant(ScalarType::BF16, ScalarType::BF16, bn);
            let mut params = Sm90Params::new(&p, &ptrs, 8);
            params.set_tiles(&v, &p);
            params.flags & (FLAG_STREAM_A | FLAG_STREAM_B)
        };
        // A decode GEMM: one 128-row tile covers m, so every B tile is loaded by one CTA.
        assert_eq!(stream(16, 4096, 1, None, 64), FLAG_STREAM_B);
        assert_eq!(stream(128, 4096, 1, None, 64), FLAG_STREAM_B);
        assert_eq!(stream(129, 4096, 1, None, 64), 0);
        // ... and, swapped (n small), A.
        assert_eq!(stream(4096, 16, 1, None, 16), FLAG_STREAM_A);
        assert_eq!(
            stream(100, 200, 1, None, 256),
            FLAG_STREAM_A | FLAG_STREAM_B
        );
        assert_eq!(stream(4096, 4096, 1, None, 256), 0);
        // Batches with their own B stream it; a B every batch shares is re-read by each.
        assert_eq!(stream(16, 4096, 4, Some(4096 * 4096), 64), FLAG_STREAM_B);
        assert_eq!(stream(16, 4096, 4, Some(0), 64), 0);
        // Up to STREAM_MAX_BYTES over all batches: 4096 x 4096 bf16 is 32 MiB, so 10 batches
        // stream and 11 do not.
        assert_eq!(stream(16, 4096, 10, Some(4096 * 4096), 64), FLAG_STREAM_B);
        assert_eq!(stream(16, 4096, 11, Some(4096 * 4096), 64), 0);
        // set_tiles for another variant replaces the bits, keeping the others.
        let (_, p) = tn(16, 4096, 4096, 4096, 4096, R_16BF);
        let mut params = Sm90Params::new(&p, &ptrs, 8);
        let other = params.flags;
        params.set_tiles(&variant(ScalarType::BF16, ScalarType::BF16, 64), &p);
        assert_eq!(params.flags, other | FLAG_STREAM_B);
        let (_, big) = tn(4096, 4096, 4096, 4096, 4096, R_16BF);
        params.set_tiles(&variant(ScalarType::BF16, ScalarType::BF16, 256), &big);
        assert_eq!(params.flags, other);
    }

    #[test]
    fn cluster_variants_load_a_share_of_b() {
        let v = variant(ScalarType::BF16, ScalarType::BF16, 256)
            .with_cluster(2)
            .unwrap();
        let (_, p) = tn(1000, 3000, 4000, 4008, 4000, R_16BF);
        let a = encode_args(&v, &p, Operand::A, 0x7000_0000).unwrap();
        let b = encode_args(&v, &p, Operand::B, 0x8000_0000).unwrap();
        assert_eq!(a.box_dim, [64, 128, 1], "each CTA loads its whole A tile");
        assert_eq!(b.box_dim, [64, 128, 1], "half of the 256 B rows, multicast");
    }

    #[test]
    fn encode_args_for_a_tn_problem() {
        let v = variant(ScalarType::BF16, ScalarType::BF16, 256);
        let (_, p) = tn(1000, 3000, 4000, 4008, 4000, R_16BF);
        let a = encode_args(&v, &p, Operand::A, 0x7000_0000).unwrap();
        assert_eq!(
            a.data_type,
            CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
        );
        assert_eq!(a.global_dim, [4000, 1000, 1]);
        assert_eq!(a.global_strides, [4008 * 2, 1000 * 4008 * 2]);
        assert_eq!(a.box_dim, [64, 128, 1]);
        assert_eq!(a.element_strides, [1, 1, 1]);
        assert_eq!(a.swizzle, CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B);
        assert_eq!(
            a.oob_fill,
            CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
        );
        let b = encode_args(&v, &p, Operand::B, 0x8000_0000).unwrap();
        assert_eq!(b.global_dim, [4000, 3000, 1]);
        assert_eq!(b.global_strides, [8000, 3000 * 8000]);
        assert_eq!(b.box_dim, [64, 256, 1]);
        assert_eq!(b.global_address, 0x8000_0000);
        // Box bytes of a stage equal what the kernel expects on its full barrier.
        let box_bytes = |e: &TiledEncode| e.box_dim.iter().map(|&d| d as u64).product::<u64>() * 2;
        assert_eq!(box_bytes(&a) + box_bytes(&b), v.stage_bytes());
        // The 128-byte swizzle needs the inner box dimension to be exactly 128 bytes here.
        assert_eq!(a.box_dim[0] as u64 * 2, 128);
        for e in [a, b] {
            assert!(e.global_strides.iter().all(|s| s % 16 == 0 && *s < 1 << 40));
            assert!(e.box_dim.iter().all(|&d| (1..=256).contains(&d)));
        }
        // L2 promotion: 128 bytes where the lines start off the L2's 128-byte lines (8016 and
        // 8000 bytes apart here), 256 where they start on them.
        if std::env::var_os("DEEPGEMM_L2_PROMOTION").is_none() {
            use CUtensorMapL2promotion::*;
            assert_eq!(a.l2_promotion, CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
            assert_eq!(b.l2_promotion, CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
            let (_, aligned) = tn(1000, 3000, 4096, 4096, 4160, R_16BF);
            for which in [Operand::A, Operand::B] {
                let e = encode_args(&v, &aligned, which, 0x7000_0000).unwrap();
                assert_eq!(e.l2_promotion, CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
            }
        }
    }

    #[test]
    fn encode_args_rejects_what_tma_cannot_do() {
        let v = variant(ScalarType::F16, ScalarType::F16, 128);
        let (_, p) = tn(256, 256, 256, 256, 256, R_16F);
        assert!(matches!(
            encode_args(&v, &p, Operand::A, 0x1008),
            Err(Error::InvalidValue(_))
        ));
        assert!(matches!(
            encode_args(&v, &p, Operand::B, 0),
            Err(Error::InvalidValue(_))
        ));
        let (_, odd) = tn(256, 256, 255, 255, 255, R_16F);
        assert!(matches!(
            encode_args(&v, &odd, Operand::A, 0x1000),
            Err(Error::NotSupported(_))
        ));
        let other = variant(ScalarType::BF16, ScalarType::BF16, 128);
        assert!(matches!(
            encode_args(&other, &p, Operand::A, 0x1000),
            Err(Error::NotSupported(_))
        ));
        let f16 = encode_args(&v, &p, Operand::A, 0x1000).unwrap();
        assert_eq!(
            f16.data_type,
            CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT16
        );
    }

    #[test]
    fn tf32_maps_round_on_load_with_32_wide_k_boxes() {
        let v = variant(ScalarType::F32, ScalarType::F32, 256);
        assert_eq!(v.block_k, 32);
        // TN fp32 with COMPUTE_32F_FAST_TF32: A stored k x m (lda = 1004), B k x n.
        let mut op = OpSpec::new(COMPUTE_32F_FAST_TF32, R_32F);
        op.trans_a = 1;
        let a = MatrixSpec::col(R_32F, 1000, 300, 1004);
        let b = MatrixSpec::col(R_32F, 1000, 129, 1000);
        let c = MatrixSpec::col(R_32F, 300, 129, 300);
        let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
        let ea = encode_args(&v, &p, Operand::A, 0x1000).unwrap();
        // TMA rounds to tf32; FLOAT32 would leave the truncation to the tensor core.
        assert_eq!(
            ea.data_type,
            CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_TFLOAT32
        );
        assert_eq!(ea.global_dim, [1000, 300, 1]);
        assert_eq!(ea.global_strides, [1004 * 4, 300 * 1004 * 4]);
        // 32 fp32 = one 128-byte swizzle line.
        assert_eq!(ea.box_dim, [32, 128, 1]);
        let eb = encode_args(&v, &p, Operand::B, 0x2000).unwrap();
        assert_eq!(eb.global_dim, [1000, 129, 1]);
        assert_eq!(eb.box_dim, [32, 256, 1]);
        let box_bytes = |e: &TiledEncode| e.box_dim.iter().map(|&d| d as u64).product::<u64>() * 4;
        assert_eq!(box_bytes(&ea) + box_bytes(&eb), v.stage_bytes());
        // Exact fp32 (COMPUTE_32F) is not tf32: refused.
        let exact = GemmProblem::new(
            &OpSpec {
                compute_type: COMPUTE_32F,
                ..op
            },
            &a,
            &b,
            &c,
            &c,
        )
        .unwrap();
        assert!(matches!(
            encode_args(&v, &exact, Operand::A, 0x1000),
            Err(Error::NotSupported(_))
        ));
    }

    /// NT fp16: A stored m x k (lda 304), B stored n x k (ldb 208), both column-major, so both
    /// MN-major; and the 128x256 variant for that layout.
    fn nt_mn_major() -> (Sm90Variant, GemmProblem) {
        use crate::plan::sm90::Major;
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_b = 1;
        let a = MatrixSpec::col(R_16F, 300, 136, 304);
        let b = MatrixSpec::col(R_16F, 200, 136, 208);
        let c = MatrixSpec::col(R_16F, 300, 200, 300);
        let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
        let v = Sm90Variant::with_layout(
            ScalarType::F16,
            ScalarType::F16,
            (Major::MN, Major::MN),
            128,
            256,
            HOPPER_SMEM_BUDGET,
        )
        .unwrap();
        (v, p)
    }

    #[test]
    fn mn_major_maps_use_64_wide_chunks() {
        let (v, p) = nt_mn_major();
        let ea = encode_args(&v, &p, Operand::A, 0x1000).unwrap();
        assert_eq!(ea.global_dim, [300, 136, 1]);
        assert_eq!(ea.global_strides, [304 * 2, 136 * 304 * 2]);
        assert_eq!(ea.box_dim, [64, 64, 1]);
        let eb = encode_args(&v, &p, Operand::B, 0x2000).unwrap();
        assert_eq!(eb.global_dim, [200, 136, 1]);
        assert_eq!(eb.global_strides, [208 * 2, 136 * 208 * 2]);
        assert_eq!(eb.box_dim, [64, 64, 1]);
        // The kernel issues block / 64 chunk loads per operand: same bytes as a whole tile.
        let chunk = 64 * 64 * 2;
        assert_eq!((128 / 64 + 256 / 64) * chunk, v.stage_bytes());
        // A K-major variant does not take these operands.
        let tn = variant(ScalarType::F16, ScalarType::F16, 256);
        assert!(matches!(
            encode_args(&tn, &p, Operand::A, 0x1000),
            Err(Error::NotSupported(_))
        ));
    }

    #[test]
    fn deep_stages_load_one_box_a_slab() {
        use crate::plan::sm90::Major;
        // 128-deep stages: a K-major operand's box stays one 128-byte slab (the kernel loads
        // two a stage), an MN-major one's box is 128 lines deep; k-iterations count stages.
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = 1;
        let a = MatrixSpec::col(R_16BF, 200, 300, 200);
        let b = MatrixSpec::col(R_16BF, 200, 256, 200);
        let c = MatrixSpec::col(R_16BF, 300, 256, 300);
        let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
        let v = variant(ScalarType::BF16, ScalarType::BF16, 64)
            .with_deep_stages()
            .unwrap();
        assert_eq!(v.block_k, 128);
        let ea = encode_args(&v, &p, Operand::A, 0x1000).unwrap();
        assert_eq!(ea.box_dim, [64, 128, 1]);
        let eb = encode_args(&v, &p, Operand::B, 0x2000).unwrap();
        assert_eq!(eb.box_dim, [64, 64, 1]);
        let nt = Sm90Variant::with_layout(
            ScalarType::BF16,
            ScalarType::BF16,
            (Major::MN, Major::MN),
            128,
            128,
            HOPPER_SMEM_BUDGET,
        )
        .and_then(Sm90Variant::with_deep_stages)
        .unwrap();
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_b = 1;
        let a = MatrixSpec::col(R_16BF, 304, 200, 304);
        let b = MatrixSpec::col(R_16BF, 256, 200, 256);
        let c = MatrixSpec::col(R_16BF, 304, 256, 304);
        let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
        assert_eq!(
            encode_args(&nt, &p, Operand::A, 0x1000).unwrap().box_dim,
            [64, 128, 1]
        );
        let mut params = Sm90Params::default();
        params.set_tiles(&nt, &p);
        assert_eq!(params.k_iters, 2, "200 k in two 128-deep stages");
    }

    #[test]
    fn batched_maps_use_the_batch_stride() {
        let v = variant(ScalarType::BF16, ScalarType::F32, 64);
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = 1;
        let mut a = MatrixSpec::col(R_16BF, 64, 200, 72);
        let mut b = MatrixSpec::col(R_16BF, 64, 50, 64);
        let mut c = MatrixSpec::col(R_32F, 200, 50, 200);
        a.batch_count = 5;
        a.batch_stride = 72 * 200 + 8;
        b.batch_count = 5;
        b.batch_stride = 64 * 64;
        c.batch_count = 5;
        c.batch_stride = 200 * 50;
        let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
        let ea = encode_args(&v, &p, Operand::A, 0x10_0000).unwrap();
        assert_eq!(ea.global_dim, [64, 200, 5]);
        assert_eq!(ea.global_strides, [144, (72 * 200 + 8) * 2]);
        let eb = encode_args(&v, &p, Operand::B, 0x20_0000).unwrap();
        assert_eq!(eb.global_dim, [64, 50, 5]);
        assert_eq!(eb.global_strides, [128, 64 * 64 * 2]);
    }

    #[test]
    fn params_follow_the_problem() {
        let (mut op, _) = tn(300, 200, 64, 64, 64, R_16BF);
        op.epilogue = epilogue::GELU_BIAS;
        op.bias_data_type = R_32F;
        let a = MatrixSpec::col(R_16BF, 64, 304, 64);
        let b = MatrixSpec::col(R_16BF, 64, 200, 64);
        let c = MatrixSpec::col(R_16BF, 304, 200, 312);
        let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
        let ptrs = GemmPointers {
            alpha: Scalar::Host(2.0),
            beta: Scalar::Device(0xbeef0),
            a: 0x1000,
            b: 0x2000,
            c: 0x3000,
            d: 0x3000,
            bias: 0x4000,
        };
        let s = Sm90Params::new(&p, &ptrs, 16);
        assert_eq!((s.m, s.n, s.k, s.batch), (304, 200, 64, 1));
        assert_eq!((s.d_ms, s.d_ns), (1, 312));
        assert_eq!((s.c_ms, s.c_ns), (1, 312));
        assert_eq!((s.alpha, s.alpha_ptr), (2.0, 0));
        assert_eq!((s.beta, s.beta_ptr), (0.0, 0xbeef0));
        // bf16 D, column-major, 624-byte leading dimension, m = 304 (whole 16-byte units), aligned address: TMA-storable; the
        // device-side beta is the kernel's to check, with C's map for a beta != 0.
        assert_eq!(
            s.flags,
            FLAG_BIAS | FLAG_BIAS_F32 | FLAG_TMA_STORE | FLAG_C_TMA
        );
        assert_eq!(s.activation, Activation::Gelu as i32);
        assert_eq!((s.bias, s.c, s.d, s.group_m), (0x4000, 0x3000, 0x3000, 16));
        // Without a bias epilogue the pointer is not passed on.
        op.epilogue = epilogue::RELU;
        let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
        let s = Sm90Params::new(&p, &ptrs, 0);
        assert_eq!(
            (s.bias, s.flags, s.group_m),
            (0, FLAG_TMA_STORE | FLAG_C_TMA, 1)
        );
        assert_eq!(s.activation, Activation::Relu as i32);
        // A host beta != 0 takes the TMA store with C's map when TMA can load C, else the
        // general epilogue, as does a D address TMA cannot use.
        let host_beta = GemmPointers {
            beta: Scalar::Host(0.5),
            ..ptrs
        };
        assert_eq!(
            Sm90Params::new(&p, &host_beta, 0).flags,
            FLAG_TMA_STORE | FLAG_C_TMA
        );
        let odd_c = GemmPointers {
            c: 0x3008,
            ..host_beta
        };
        assert_eq!(Sm90Params::new(&p, &odd_c, 0).flags, 0);
        let device_beta_odd_c = GemmPointers { c: 0x3008, ..ptrs };
        assert_eq!(
            Sm90Params::new(&p, &device_beta_odd_c, 0).flags,
            FLAG_TMA_STORE,
            "a device beta: the kernel checks it, C's map is withheld"
        );
        let mut c_odd_ld = c;
        c_odd_ld.ld = 305;
        let p_odd_c = GemmProblem::new(&op, &a, &b, &c_odd_ld, &c).unwrap();
        assert_eq!(Sm90Params::new(&p_odd_c, &host_beta, 0).flags, 0);
        let mut c_rows = c;
        c_rows.order = crate::types::order::ROW;
        c_rows.ld = 208;
        let p_c_rows = GemmProblem::new(&op, &a, &b, &c_rows, &c).unwrap();
        assert_eq!(
            Sm90Params::new(&p_c_rows, &host_beta, 0).flags,
            0,
            "C's layout is not D's"
        );
        let zero_beta = GemmPointers {
            beta: Scalar::Host(0.0),
            ..ptrs
        };
        assert_eq!(Sm90Params::new(&p, &zero_beta, 0).flags, FLAG_TMA_STORE);
        let odd_d = GemmPointers {
            d: 0x3008,
            ..zero_beta
        };
        assert_eq!(Sm90Params::new(&p, &odd_d, 0).flags, 0);
        // Row-major D says so.
        let mut c_row = c;
        c_row.order = crate::types::order::ROW;
        c_row.ld = 208;
        let p = GemmProblem::new(&op, &a, &b, &c_row, &c_row).unwrap();
        assert_eq!(
            Sm90Params::new(&p, &zero_beta, 0).flags,
            FLAG_TMA_STORE | FLAG_D_ROW_MAJOR
        );
    }

    #[test]
    fn c_maps_are_d_maps_with_the_strides_of_c_and_whole_boxes() {
        // A 176-wide tile: D's stores go 16 columns at a time, C's loads whole 64 x 64 boxes.
        let v = variant(ScalarType::BF16, ScalarType::BF16, 176);
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = 1;
        let a = MatrixSpec::col(R_16BF, 64, 1000, 64);
        let b = MatrixSpec::col(R_16BF, 64, 3000, 64);
        let c = MatrixSpec::col(R_16BF, 1000, 3000, 1024);
        let d = MatrixSpec::col(R_16BF, 1000, 3000, 1008);
        let p = GemmProblem::new(&op, &a, &b, &c, &d).unwrap();
        let e = encode_c_args(&v, &p, StoreLayout::ColMajor, 0x20_0000).unwrap();
        assert_eq!(e.global_address, 0x20_0000);
        assert_eq!(e.global_dim, [1000, 3000, 1]);
        assert_eq!(e.global_strides, [2048, 3000 * 2048]);
        assert_eq!(e.box_dim, [64, 64, 1]);
        assert_eq!(e.swizzle, CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B);
        let d_map = encode_store_args(&v, &p, StoreLayout::ColMajor, 0x10_0000).unwrap();
        assert_eq!(d_map.box_dim, [64, 16, 1]);
        assert!(matches!(
            encode_c_args(&v, &p, StoreLayout::ColMajor, 0x20_0008),
            Err(Error::NotSupported(_))
        ));
        assert!(matches!(
            encode_c_args(&v, &p, StoreLayout::RowMajor, 0x20_0000),
            Err(Error::NotSupported(_))
        ));
    }

    #[test]
    fn store_maps_follow_the_layout_of_d() {
        let v = variant(ScalarType::BF16, ScalarType::BF16, 256);
        // Column-major D, m = 1000 rows, ldd = 1008.
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = 1;
        let a = MatrixSpec::col(R_16BF, 64, 1000, 64);
        let b = MatrixSpec::col(R_16BF, 64, 3000, 64);
        let d = MatrixSpec::col(R_16BF, 1000, 3000, 1008);
        let p = GemmProblem::new(&op, &a, &b, &d, &d).unwrap();
        let e = encode_store_args(&v, &p, StoreLayout::ColMajor, 0x10_0000).unwrap();
        assert_eq!(
            e.data_type,
            CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
        );
        assert_eq!(e.global_dim, [1000, 3000, 1]);
        assert_eq!(e.global_strides, [2016, 3000 * 2016]);
        assert_eq!(e.box_dim, [64, 64, 1]);
        // The staging is written with this swizzle; its inner box is exactly one 128-byte line.
        assert_eq!(e.swizzle, CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B);
        assert_eq!(e.box_dim[0] * 2, SWIZZLE_BYTES);
        // Two consumers x two buffers of one box each: the smem the plan reserves.
        let box_bytes = e.box_dim.iter().map(|&x| x as u64).product::<u64>() * 2;
        assert_eq!(4 * box_bytes, crate::plan::sm90::TMA_STORE_SMEM_BYTES);
        // Asking for the other layout, or an unaligned address, is refused.
        assert!(matches!(
            encode_store_args(&v, &p, StoreLayout::RowMajor, 0x10_0000),
            Err(Error::NotSupported(_))
        ));
        assert!(matches!(
            encode_store_args(&v, &p, StoreLayout::ColMajor, 0x10_0002),
            Err(Error::NotSupported(_))
        ));
        // Row-major, batched, fp16: (n, m, batch) with the batch stride.
        let v16 = variant(ScalarType::F16, ScalarType::F16, 128);
        let mut a = MatrixSpec::col(R_16F, 64, 200, 64);
        let mut b = MatrixSpec::col(R_16F, 64, 72, 64);
        let mut d = MatrixSpec::col(R_16F, 200, 72, 80);
        d.order = crate::types::order::ROW;
        for s in [&mut a, &mut b, &mut d] {
            s.batch_count = 3;
        }
        a.batch_stride = 64 * 200;
        b.batch_stride = 64 * 72;
        d.batch_stride = 200 * 80 + 8;
        let p = GemmProblem::new(&op, &a, &b, &d, &d).unwrap();
        let e = encode_store_args(&v16, &p, StoreLayout::RowMajor, 0x20_0000).unwrap();
        assert_eq!(
            e.data_type,
            CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT16
        );
        assert_eq!(e.global_dim, [72, 200, 3]);
        assert_eq!(e.global_strides, [160, (200 * 80 + 8) * 2]);
        // fp32 D has no TMA-store epilogue.
        let vf = variant(ScalarType::F16, ScalarType::F32, 128);
        let d32 = MatrixSpec::col(R_32F, 200, 72, 200);
        let a = MatrixSpec::col(R_16F, 64, 200, 64);
        let b = MatrixSpec::col(R_16F, 64, 72, 64);
        let p = GemmProblem::new(&op, &a, &b, &d32, &d32).unwrap();
        assert!(matches!(
            encode_store_args(&vf, &p, StoreLayout::ColMajor, 0x20_0000),
            Err(Error::NotSupported(_))
        ));
        // A fill width (176 = 64 + 64 + 48) stores 16 columns at a time: column-major D with
        // a 64 x 16 box; row-major D gets neither the map nor the flag.
        let fill = variant(ScalarType::BF16, ScalarType::BF16, 176);
        let a = MatrixSpec::col(R_16BF, 64, 1000, 64);
        let b = MatrixSpec::col(R_16BF, 64, 3000, 64);
        let d = MatrixSpec::col(R_16BF, 1000, 3000, 1008);
        let p = GemmProblem::new(&op, &a, &b, &d, &d).unwrap();
        let e = encode_store_args(&fill, &p, StoreLayout::ColMajor, 0x10_0000).unwrap();
        assert_eq!(e.box_dim, [64, 16, 1]);
        // 168 = 64 + 64 + 40: 8 columns at a time (1 KiB of the staging buffer).
        let fill8 = variant(ScalarType::BF16, ScalarType::BF16, 168);
        let e = encode_store_args(&fill8, &p, StoreLayout::ColMajor, 0x10_0000).unwrap();
        assert_eq!(e.box_dim, [64, 8, 1]);
        let ptrs = GemmPointers {
            alpha: Scalar::Host(1.0),
            beta: Scalar::Host(0.0),
            a: 0x1000,
            b: 0x2000,
            c: 0x10_0000,
            d: 0x10_0000,
            bias: 0,
        };
        let params = Sm90Params::new_with(&p, &ptrs, 16, false, Some(16));
        assert_eq!(
            params.flags & (FLAG_TMA_STORE | FLAG_D_ROW_MAJOR),
            FLAG_TMA_STORE
        );
        // Row-major D: slabs of 16 (8) columns x 64 rows, 32-byte lines in the 32-byte swizzle
        // (16-byte lines unswizzled), whole boxes as before.
        let mut d_row = MatrixSpec::col(R_16BF, 1000, 3000, 3008);
        d_row.order = crate::types::order::ROW;
        let p_row = GemmProblem::new(&op, &a, &b, &d_row, &d_row).unwrap();
        let row_flags = |cols| Sm90Params::new_with(&p_row, &ptrs, 16, false, Some(cols)).flags;
        for cols in [16, 8, STORE_BOX] {
            assert_eq!(
                row_flags(cols) & (FLAG_TMA_STORE | FLAG_D_ROW_MAJOR),
                FLAG_TMA_STORE | FLAG_D_ROW_MAJOR
            );
        }
        let e = encode_store_args(&fill, &p_row, StoreLayout::RowMajor, 0x10_0000).unwrap();
        assert_eq!(e.box_dim, [16, 64, 1]);
        assert_eq!(e.swizzle, CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_32B);
        let e = encode_store_args(&fill8, &p_row, StoreLayout::RowMajor, 0x10_0000).unwrap();
        assert_eq!(e.box_dim, [8, 64, 1]);
        assert_eq!(e.swizzle, CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_NONE);
        let whole = variant(ScalarType::BF16, ScalarType::BF16, 192);
        let e = encode_store_args(&whole, &p_row, StoreLayout::RowMajor, 0x10_0000).unwrap();
        assert_eq!(e.box_dim, [64, 64, 1]);
        assert_eq!(e.swizzle, CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B);
        // A D whose tiles end in a partial box stores its whole boxes through a second map
        // (C's slot, no C read): the same tensor, 64 x 64 boxes, 128-byte swizzle; not at
        // whole-box widths, nor in a row-major D's 8-column slabs (not planned).
        assert_eq!(row_flags(16) & FLAG_D_BOXES, FLAG_D_BOXES);
        assert_eq!(row_flags(8) & FLAG_D_BOXES, 0);
        assert_eq!(row_flags(STORE_BOX) & FLAG_D_BOXES, 0);
        assert_eq!(params.flags & FLAG_D_BOXES, FLAG_D_BOXES);
        let col_flags = |cols| Sm90Params::new_with(&p, &ptrs, 16, false, Some(cols)).flags;
        assert_eq!(col_flags(8) & FLAG_D_BOXES, FLAG_D_BOXES);
        assert_eq!(col_flags(STORE_BOX) & FLAG_D_BOXES, 0);
        let slabs = encode_store_args(&fill, &p_row, StoreLayout::RowMajor, 0x10_0000).unwrap();
        let boxes = encode_store_box_args(&fill, &p_row, 0x10_0000, false).unwrap();
        assert_eq!(boxes.box_dim, [64, 64, 1]);
        assert_eq!(
            boxes.swizzle,
            CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B
        );
        assert_eq!(
            (boxes.global_address, boxes.global_dim, boxes.global_strides),
            (slabs.global_address, slabs.global_dim, slabs.global_strides)
        );
        assert!(encode_store_box_args(&fill, &p, 0x10_0000, false).is_err());
        // Column-major: whole boxes through the second map, the last box (176 = 64 + 64 + 48;
        // 168 = 64 + 64 + 40) in one store through D's, boxed to its width.
        for (v, tail) in [(&fill, 48), (&fill8, 40)] {
            let args = encode_store_args(v, &p, StoreLayout::ColMajor, 0x10_0000).unwrap();
            let whole = with_whole_boxes(args);
            assert_eq!(whole.box_dim, [64, 64, 1]);
            let last = with_tail_box(args, v);
            assert_eq!(last.box_dim, [64, tail, 1]);
            assert_eq!(last.swizzle, CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B);
            assert_eq!(
                (last.global_address, last.global_dim, last.global_strides),
                (args.global_address, args.global_dim, args.global_strides)
            );
        }
        // beta != 0: C by TMA, into whole boxes (64 x 64, 128-byte swizzle) or, for a
        // row-major D in slabs, with D's slab box and swizzle (one load a slab).
        let beta1 = GemmPointers {
            beta: Scalar::Host(1.0),
            ..ptrs
        };
        for cols in [16, STORE_BOX] {
            // C's map takes the fourth slot: every box of a tile in slabs goes in slabs.
            let flags = Sm90Params::new_with(&p_row, &beta1, 16, false, Some(cols)).flags;
            assert_eq!(
                flags & (FLAG_TMA_STORE | FLAG_C_TMA | FLAG_D_BOXES),
                FLAG_TMA_STORE | FLAG_C_TMA
            );
        }
        // Not into 8-column slabs: the general epilogue reads C there.
        let flags = Sm90Params::new_with(&p_row, &beta1, 16, false, Some(8)).flags;
        assert_eq!(flags & (FLAG_TMA_STORE | FLAG_C_TMA), 0);
        let e = encode_c_args(&fill, &p_row, StoreLayout::RowMajor, 0x10_0000).unwrap();
        assert_eq!(e.box_dim, [16, 64, 1]);
        assert_eq!(e.swizzle, CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_32B);
        let e = encode_c_args(&fill8, &p_row, StoreLayout::RowMajor, 0x10_0000).unwrap();
        assert_eq!(e.box_dim, [8, 64, 1]);
        let e = encode_c_args(&whole, &p_row, StoreLayout::RowMajor, 0x10_0000).unwrap();
        assert_eq!(e.box_dim, [64, 64, 1]);
        assert_eq!(e.swizzle, CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B);
        // Column-major fill widths: whole 64 x 64 boxes of C whatever D's stores.
        let e = encode_c_args(&fill, &p, StoreLayout::ColMajor, 0x10_0000).unwrap();
        assert_eq!(e.box_dim, [64, 64, 1]);
    }

    #[test]
    fn launch_args_point_at_the_five_arguments() {
        let mut params = Sm90Params::default();
        let mut a = TensorMap([1; 16]);
        let mut b = TensorMap([2; 16]);
        let mut d = TensorMap([3; 16]);
        let mut c = TensorMap([4; 16]);
        let args = launch_args(&mut params, &mut a, &mut b, &mut d, &mut c);
        assert_eq!(args[0], (&mut params as *mut Sm90Params).cast());
        assert_eq!(args[1], (&mut a as *mut TensorMap).cast());
        assert_eq!(args[2], (&mut b as *mut TensorMap).cast());
        assert_eq!(args[3], (&mut d as *mut TensorMap).cast());
        assert_eq!(args[4], (&mut c as *mut TensorMap).cast());
        for arg in &args[1..] {
            assert_eq!(*arg as usize % 64, 0);
        }
    }
}
