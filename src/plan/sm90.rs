//! The Hopper main-tile kernel family (kernels/sm90/gemm.cuh): its variants, the shared-memory
//! formula, which problems a variant takes, and its launch shape.
//!
//! Pure Rust over plain data, like the rest of `plan`. The kernel is TMA + wgmma, one producer
//! warpgroup and two consumer warpgroups (384 threads), persistent (one CTA per SM). Each operand
//! is either K-major (unit stride along k: column-major `transa = T` / `transb = N`, the "TN"
//! case of a PyTorch Linear layer) or MN-major (unit stride along m / n: column-major
//! `transa = N` / `transb = T`); a variant is built for one pair, so all four transposes and
//! both storage orders of A and B are covered. C and D take any strides. m, n and k need not be
//! tile multiples: TMA zero-fills past the operands' edges and the epilogue skips rows and
//! columns past m and n.
//!
//! Inputs are bf16 or fp16 (wgmma k16, BLOCK_K = 64), or fp32 with COMPUTE_32F_FAST_TF32
//! (`Math::MmaTf32`: wgmma k8 on tf32, BLOCK_K = 32, fp32 C/D). A stage holds 128 bytes of k per
//! row either way, so tf32 variants have the stage counts of the 16-bit ones (16-bit variants
//! with 128-deep stages, BLOCK_K = 128, hold two such slabs a stage: `with_deep_stages`, planned
//! only under DEEPGEMM_DEEP=1 until measured in the kernel). The PTX ISA's tf32
//! wgmma has no transpose operands, so it reads K-major shared memory only: tf32 variants take
//! TN, and NN (PyTorch's fp32 `matmul`) with A through registers (each consumer thread gathers
//! its fragment from the MN-major tile; one wgmma batch in flight per k-step instead of two).
//! An N-major B has no variant: TT runs as NN on the transposed problem (`plan::swapped_plans`),
//! NT (both operands M/N-major either way round) on the portable kernel.
//!
//! Two epilogues share every binary; the launch picks one (`tma_store`): TMA stores from a
//! stmatrix-written staging buffer, overlapped with the next tile's mainloop, when D is 16-bit,
//! TMA-addressable and beta is 0; the general shared-memory-staged one otherwise.

use crate::plan::DeviceSpec;
use crate::problem::{GemmPointers, GemmProblem, Scalar};
use crate::types::{Math, ScalarType};

/// Threads per CTA: one producer and two consumer warpgroups (the kernel's `__launch_bounds__`);
/// a solo variant's (`Sm90Variant::threads`) has one consumer.
pub const THREADS: u32 = 384;
/// Width of the TMA / wgmma swizzle: one tile row holds this many bytes of k.
pub const SWIZZLE_BYTES: u32 = 128;
/// Dynamic shared memory is only 16-byte aligned; the kernel rounds its storage up to the
/// 1024-byte swizzle period, so this much slack is part of every variant's budget.
pub const SMEM_ALIGN_SLACK: u64 = 1024;
/// Consumer warpgroups per CTA: 64 rows each of a 128-row tile (cooperative), or a 64-row tile
/// each, in turn (ping-pong, `PINGPONG_TILES`); solo variants have one (`SOLO_TILES`).
pub const CONSUMERS: u64 = 2;
/// The general epilogue's staging buffers (kernels/sm90/epilogue.cuh `StagedShape`): per
/// consumer warpgroup, 32 columns x (64 + 4) rows of fp32.
pub const EPILOGUE_SMEM_BYTES: u64 = CONSUMERS * EPILOGUE_SMEM_BYTES_PER_CONSUMER;
const EPILOGUE_SMEM_BYTES_PER_CONSUMER: u64 = 32 * (64 + 4) * 4;
/// Rows and columns of one TMA-store box (kernels/sm90/store.cuh `StoreShape::kBox`): 64 16-bit
/// values are one 128-byte swizzle line.
pub const STORE_BOX: u32 = 64;
/// Staging buffers per consumer warpgroup for the TMA-store epilogue (`StoreShape::kBuffers`):
/// two let one box drain while the next is written. Together 32 KiB, which still leaves room
/// for 4 stages of 128x256 (48 KiB each) in the 227 KiB; a third buffer would cost a stage.
pub const STORE_BUFFERS: u64 = 2;
/// What a ring-epilogue variant keeps of the epilogue's own region (kernels/sm90/gemm.cuh
/// `SharedStorage`): a placeholder, its staging being in the ring.
pub const RING_EPILOGUE_PLACEHOLDER_BYTES: u64 = 16;
/// The TMA-store epilogue's staging (16-bit D only): per consumer, STORE_BUFFERS boxes.
pub const TMA_STORE_SMEM_BYTES: u64 = CONSUMERS * TMA_STORE_SMEM_BYTES_PER_CONSUMER;
const TMA_STORE_SMEM_BYTES_PER_CONSUMER: u64 =
    STORE_BUFFERS * STORE_BOX as u64 * STORE_BOX as u64 * 2;
/// Opt-in shared memory per block on H100/H200 (232448 bytes = 227 KiB).
pub const HOPPER_SMEM_BUDGET: u32 = 232_448;
/// Shared memory of a solo CTA, two of which share an SM: the SM's 228 KiB less 1 KiB the
/// hardware reserves per CTA, halved.
pub const SOLO_SMEM_BUDGET: u32 = (233_472 - 2 * 1024) / 2;
/// Tile rows per L2 group in the scheduler (kernels/sm90/scheduler.cuh); DeepGEMM and fast.cu
/// use 8-16. Not yet tuned on the H200.
pub const DEFAULT_GROUP_M: u32 = 16;
/// TMA global strides must be multiples of 16 bytes and below 2^40, and base addresses 16-byte
/// aligned. A box may not start inside a 16-byte unit of its line either: coordinates along
/// the contiguous dimension are element-granular, but a load or store at one that is not a
/// multiple of 16 bytes from an aligned base stops the kernel with
/// CUDA_ERROR_ILLEGAL_INSTRUCTION, swizzled or not (H200, session 9, branch `next/residue`:
/// per-residue-class maps of lines with an odd leading dimension). So an odd leading dimension
/// cannot be read or written through TMA at all, only through copies or element-wise paths.
pub const TMA_STRIDE_ALIGN: u64 = 16;
pub const TMA_MAX_STRIDE: u64 = 1 << 40;
/// TMA coordinates are signed 32-bit; the kernel adds a tile to them, or a cluster's tiles
/// (2 x 256 columns for a 2 x 2 cluster of 128x256: 256 of headroom let the last tile column's
/// end overflow an int, a session-51 review).
const MAX_DIM: u64 = i32::MAX as u64 - 1024;
/// Headroom of the scheduler's 32-bit tile counter over tiles x k-iterations: a CTA's next
/// data-parallel tile is its last one plus the grid (`dp_next += stride`,
/// kernels/sm90/scheduler.cuh), up to two CTAs an SM; a wrapped counter would pass its
/// `< num_tiles` test and write D far below its start (session-51 review: a solo launch of 264
/// CTAs over ~2^31 one-iteration tiles).
const SCHEDULER_HEADROOM: u64 = 1 << 16;

/// The tiles (block_m, block_n) every type combination is built with: 128x256 for large
/// problems, 128x128 for mid-sized ones (more tiles, better wave balance) and 128x64 for small n.
/// 128x192 fills waves where 256-wide tiles leave the last one mostly empty (n = 2112 = 11 x 192:
/// 352 tiles = 2.67 waves instead of 288 = 2.18).
pub const TILES: [(u32, u32); 4] = [(128, 256), (128, 192), (128, 128), (128, 64)];

/// Widths between those, so that the tiles along n come closer to whole waves of the SMs (wgmma
/// takes any N that is a multiple of 8; cuBLAS ran 1664^2 on 168-wide tiles, 130 of them for
/// 132 SMs, where 192 leaves 117 and 128 makes 169): every multiple of 16 from 96, and every
/// multiple of 8 from 136, where a step of 16 still left up to 5% of a tile's work past the
/// edge (1664 = 10 x 166.4: 176 computes 1760 columns, 168 computes 1680). K-major B only: an
/// MN-major B tile is loaded in whole 64-column chunks. Their TMA stores go 16 columns at a
/// time, 8 for the widths 8 past a multiple of 16 (`store_box_cols`): whole lines of a
/// column-major D, slabs of a row-major D's lines (kernels/sm90/store.cuh).
pub const FILL_TILES: [(u32, u32); 16] = [
    (128, 96),
    (128, 112),
    (128, 136),
    (128, 144),
    (128, 152),
    (128, 160),
    (128, 168),
    (128, 176),
    (128, 184),
    (128, 200),
    (128, 208),
    (128, 216),
    (128, 224),
    (128, 232),
    (128, 240),
    (128, 248),
];

/// The tile widths built in clusters of 2 with B multicast as well (`Sm90Variant::with_cluster`):
/// the wide tiles of large problems, whose B loads are most of the L2 traffic (a 128x256
/// stage: 16 KiB of A, 32 KiB of B).
pub const CLUSTER_TILES_N: [u32; 3] = [256, 192, 128];

/// Tile widths also built in clusters of 2 x 2 (A multicast as well as B): for launches whose
/// L2 requests bind, e.g. rows off the L2's lines under a wave, where cuBLASLt runs clusters of
/// 2-8 (session 18, `18a`). Only 30 clusters of 4 fit on the H200 (`DeviceSpec::
/// resident_clusters`), so they pay where a launch fills at most those: `20b` swept them at
/// 0.73-0.88 of the best other plan timed on five long-k shapes with rows off the lines
/// (992x1536x10664 58.4 us against 79.8, 496x1000x11400 35.7 against 46.2).
pub const CLUSTER_2X2_TILES_N: [u32; 2] = [256, 128];

/// Tile widths also built in clusters along n alone, 1 x 2 and 1 x 4 (`Sm90Variant::
/// with_cluster_n`): the CTAs of a tile row share its A tile through multicast. A narrow tile
/// loads 128 rows of A for every 16-96 columns of B, and under a wave its A is re-read by every
/// tile column: 496x376x1360 on 96 CTAs of 128x16 moves ~38 MB from L2 for 2.4 MB of operands
/// and keeps its SMs busy 1.8x as long as cuBLASLt's 64x32 tiles in clusters of 2 x 4 (`20i`).
/// Session 20 built them; planned by the cost model since session 21, where
/// `streamk::cluster_n_pays` allows (`21a`-`21d`): 64 and 96 wide only, so the 16- and 32-wide
/// ones run only under `DEEPGEMM_CLUSTER=1x2` / `1x4` (the model ranks their unclustered twins
/// too well already; planned, 1 x 2 of 32 lost 7 of 7).
pub const CLUSTER_N_TILES_N: [u32; 4] = [16, 32, 64, 96];

/// The fill widths (`FILL_TILES`, K-major B) built in clusters of 2 as well: those whose half
/// (each CTA's share of the multicast B tile) keeps whole 1024-byte swizzle periods. Where a
/// leading dimension puts the operands' lines mid-sector, the L2 requests bound the launch
/// (`streamk::line_requests`) and halving B's is worth most, also on the narrower problems
/// the fill widths exist for (session 17).
pub const CLUSTER_FILL_TILES_N: [u32; 6] = [240, 224, 208, 176, 160, 144];

/// The widest tile whose general epilogue adds a bias along n (kernels/sm90/epilogue.cuh
/// `kCanBiasCol`; wider ones would spill). Wider tiles of `Sm90Variant::tma_bias_col` take it
/// through the TMA-store epilogue only (`wide_bias_col`).
pub const MAX_BIAS_ALONG_N_TILE: u32 = 64;

/// The widest tile whose TMA-store epilogue adds a bias along n (`Sm90Variant::tma_bias_col`).
pub const MAX_WIDE_BIAS_COL_TILE: u32 = 240;

/// Narrow tiles for problems with a small n, or a small m computed swapped (D^T = B^T A^T,
/// `GemmProblem::transposed`): decode-sized GEMMs stream A (the weights) once, so a 128-row
/// tile of 16 or 32 columns wastes no bandwidth and little tensor-core work on padding, and a
/// 144 x 64 x 2-byte stage leaves room for ~11 stages in flight. K-major B only (an n16 line
/// is 32 bytes: the 128-byte swizzle of the MN-major layout needs 64 values); the general
/// epilogue only (the TMA-store path writes 64-column boxes).
pub const NARROW_TILES: [(u32, u32); 2] = [(128, 32), (128, 16)];

/// Ping-pong tiles (kernels/sm90/gemm.cuh, BLOCK_M = 64): each consumer warpgroup computes
/// whole 64-row tiles, the CTA's tiles taken in turn, so one warpgroup's epilogue runs while
/// the other's mainloop keeps the tensor cores busy (the cooperative 128-row tiles stop both
/// for it). 16-bit inputs, unclustered, data-parallel only. Measured on the H200 (session 6,
/// BENCHMARKS.md) they lose: a 64-row tile loads 1.67x the bytes per multiply of 128x256, and
/// one SM's loads top out near 107 GB/s, so the mainloop runs 10-15% slower than the
/// cooperative one (4096^3: 195 us against 175) and hiding the epilogue does not make it up;
/// clusters of 2 (B multicast) were slower still. Planned by default only as the 64x128 tile
/// in one wave where the model's first plan is 128x64 (`plan::pingpong_for_narrow`, session
/// 41: one warpgroup's m64n128 wgmmas instead of two warpgroups' m64n64); everywhere under
/// `DEEPGEMM_PINGPONG=1` (`pingpong_forced`).
pub const PINGPONG_TILES: [(u32, u32); 3] = [(64, 256), (64, 192), (64, 128)];

/// Solo tiles (kernels/sm90/gemm.cuh `kSolo`): one consumer warpgroup computes whole 64-row
/// tiles in a CTA of 256 threads, two CTAs an SM (`SOLO_SMEM_BUDGET`, 128 registers a thread at
/// launch): twice the CTAs of the 128-row tiles for shapes with few tiles, as cuBLASLt's 64-row
/// tiles on small and under-a-wave shapes. 16-bit inputs, and tf32 TN (`solo_built`),
/// unclustered. Planned everywhere under `DEEPGEMM_SOLO=1` (`solo_forced`; tf32 TN too since
/// session 60), by default where `plan::solo_for_short` / `solo_split_for_few_tiles` take them.
pub const SOLO_TILES_N: [u32; 2] = [128, 64];

/// Widths of the tall 192-row tiles (`Sm90Variant::tall_tile`: three consumer warpgroups of 64
/// rows, 512 threads; kernels/sm90/gemm.cuh `kTall`), 16-bit in, K-major A and B (TN),
/// unclustered or in 1 x 2 (A multicast), data-parallel. Session 67 (`67a`, H100): under a wave cuBLASLt ran 5888x280x5640
/// TN on 192 x 72 tiles (124 CTAs) where deepgemm's 128-row menu leaves 92 tiles of 128 x 144:
/// more SMs, and fewer L2 requests a multiply-add where the requests bound each CTA. At most
/// 128 wide (ptxas holds the whole kernel to the 128 registers a thread of 512 allows: 144 spilled
/// 8 bytes, 160 26). Planned only under
/// `DEEPGEMM_TALL` (`tall_mode`) until measured.
pub const TALL_TILES_N: [u32; 6] = [64, 72, 80, 96, 112, 128];
/// Rows of a tall tile.
pub const TALL_BLOCK_M: u32 = 192;

/// Widths of the column-split 192-row tiles (`Sm90Variant::column_split_tile`; kernels/sm90/
/// gemm.cuh `kColSplit`): two consumer warpgroups, each computing every row of the tile in
/// three m64 blocks and half its columns (three m64n(block_n / 2) wgmmas a k-slice, 144
/// accumulators at 192 wide), 384 threads, 16-bit in with a K-major B, data-parallel: TN
/// unclustered, 2 x 1 and 1 x 2; NN (an M-major A, session 77) unclustered and 2 x 1, planned
/// by default since session 78 (`column_split_nn`). cuBLASLt's "coopB" tiles: it ran 6240x752x4600 on 192 x 192 in 1 x 2 (132 CTAs,
/// 58.5 us, tensor pipe 84%) against deepgemm's 83.6 us (session 69, `69c`); the mainloop probe
/// (scripts/probes/tile-forms.cu) ran a 128 x 128 block of D a 64-k in 579 cycles at 192 x 192,
/// 640 at 192 x 160, against 610 at 128 x 256 (lines aligned; mid-sector 831 / 903 / 908).
/// Ranked by the model among the others by default since session 71 (`column_split_mode`;
/// `71c`, H100: 28 moved TN shapes, 26 outside the fit, 0.897 of the time, none slower, 0.850
/// -> 0.948x cuBLASLt).
pub const COLUMN_SPLIT_TILES_N: [u32; 3] = [160, 176, 192];

/// Widths of the wide ping-pong 128-row tiles (`Sm90Variant::wide_pingpong_tile`; kernels/sm90/
/// gemm.cuh `kWidePingPong`): the consumers take whole 128 x block_n tiles in turn, each in two
/// m64 blocks (128 accumulators a thread at 128 wide), so that one tile's epilogue runs under
/// the other consumer's mainloop, the tensor pipe's idle time that the cooperative tiles pay
/// every tile (~2,100-3,300 cycles against mainloops of 16-256 k-steps of ~1,000 on set A,
/// README). A 128 x 128 tile loads 1.33x the bytes a multiply-add of 128 x 256 (the 64-row
/// ping-pong tiles 1.67x, which lost on the H200, `PINGPONG_TILES`): its 2 x 1 twin (B
/// multicast) asks the L2 for 128 x 256's bytes a multiply-add. 16-bit inputs, every layout,
/// data-parallel. Planned only under `DEEPGEMM_PINGPONG=1` (with the 64-row ones) until measured.
pub const WIDE_PINGPONG_TILES_N: [u32; 1] = [128];

/// Whether the solo tiles are built for inputs `ab` in `layout` (A's, B's major): 16-bit in
/// every layout, tf32 with both operands K-major only (the solo path reads A from shared
/// memory: no register-A form for an M-major tf32 A, and tf32 wgmma reads B K-major only).
pub fn solo_built(ab: ScalarType, layout: (Major, Major)) -> bool {
    ab.size_bytes() == 2 || (ab == ScalarType::F32 && layout == (Major::K, Major::K))
}

/// The tile widths built as split-K clusters as well (`Sm90Variant::with_split_k`): the two CTAs
/// of a cluster compute the two halves of every tile's k-loop and the partial is added through
/// distributed shared memory (kernels/sm90/gemm.cuh), for problems with too few tiles to fill
/// the SMs (decode shapes computed swapped, small m or n with a long k). Up to 64 wide: the
/// landing buffer of the peer's partial, 64 x block_n fp32, costs stages.
pub const SPLIT_K_TILES_N: [u32; 3] = [64, 32, 16];

/// Which dimension of an operand is contiguous in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Major {
    /// Unit stride along k (wgmma imm-trans 0).
    K,
    /// Unit stride along m (for A) or n (for B) (wgmma imm-trans 1).
    MN,
}

impl Major {
    /// The kernel's `kTransA` / `kTransB`.
    pub fn trans(self) -> u32 {
        match self {
            Major::K => 0,
            Major::MN => 1,
        }
    }
}

/// The operand layouts (A, B) every tile and type is built with: TN, NN, TT, NT in cuBLAS
/// column-major terms.
pub const LAYOUTS: [(Major, Major); 4] = [
    (Major::K, Major::K),
    (Major::MN, Major::K),
    (Major::K, Major::MN),
    (Major::MN, Major::MN),
];

/// The math an sm90 variant with inputs `ab` computes: tf32 tensor cores for fp32 inputs
/// (COMPUTE_32F_FAST_TF32), the inputs' own type otherwise.
pub fn math_for(ab: ScalarType) -> Math {
    match ab {
        ScalarType::F32 => Math::MmaTf32,
        ScalarType::F16 | ScalarType::BF16 => Math::Mma,
    }
}

/// One compiled sm90 kernel: everything that changes its binary except the architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sm90Variant {
    /// A and B element type: BF16 or F16, or F32 multiplied as tf32 (`math_for`).
    pub ab: ScalarType,
    /// C and D element type (the input type, or F32).
    pub cd: ScalarType,
    pub major_a: Major,
    pub major_b: Major,
    pub block_m: u32,
    pub block_n: u32,
    /// 128 bytes of k: 64 for 16-bit inputs, 32 for tf32.
    pub block_k: u32,
    pub stages: u32,
    pub cluster_m: u32,
    pub cluster_n: u32,
    /// CTAs of a cluster that share each tile's k-loop (1, or 2: split-K in the cluster,
    /// `with_split_k`).
    pub split_k: u32,
    /// The epilogue's staging lives in the ring's first stages instead of a region of its own
    /// (`with_ring_epilogue`): a stage more, for launches of at most one tile a CTA.
    pub ring_epilogue: bool,
    /// Consumer warpgroups: 2, or 1 for the solo tiles (`solo`, `SOLO_TILES_N`).
    pub consumers: u32,
    /// The two consumers take whole 128-row tiles in turn (`wide_pingpong_tile`).
    pub wide_pingpong: bool,
}

impl Sm90Variant {
    /// The K-major ("TN") variant with this tile and as many pipeline stages as fit in
    /// `smem_budget` bytes; `None` for types or tiles the kernel does not implement, or when
    /// not even two stages fit.
    pub fn new(
        ab: ScalarType,
        cd: ScalarType,
        block_m: u32,
        block_n: u32,
        smem_budget: u32,
    ) -> Option<Sm90Variant> {
        Self::with_layout(ab, cd, (Major::K, Major::K), block_m, block_n, smem_budget)
    }

    /// As `new`, for operand layouts `(major_a, major_b)`. tf32 (F32 in, F32 out) exists for a
    /// K-major B only (TN, and NN with A through registers on the 64-256 wide tiles).
    pub fn with_layout(
        ab: ScalarType,
        cd: ScalarType,
        (major_a, major_b): (Major, Major),
        block_m: u32,
        block_n: u32,
        smem_budget: u32,
    ) -> Option<Sm90Variant> {
        if !(cd == ab || cd == ScalarType::F32) {
            return None;
        }
        let narrow = matches!(block_n, 16 | 32);
        // tf32 reads B K-major only; an M-major A goes through registers (the kernel's
        // register-A form, on the 64-256 wide tiles).
        if ab == ScalarType::F32 && major_b != Major::K {
            return None;
        }
        if ab == ScalarType::F32 && major_a == Major::MN && narrow {
            return None;
        }
        let fill = FILL_TILES.contains(&(block_m, block_n));
        let pingpong = PINGPONG_TILES.contains(&(block_m, block_n));
        if pingpong && ab == ScalarType::F32 {
            return None;
        }
        if !pingpong
            && (block_m != 128 || !(narrow || fill || matches!(block_n, 64 | 128 | 192 | 256)))
        {
            return None;
        }
        if fill && major_b != Major::K {
            return None;
        }
        if narrow && major_b != Major::K {
            return None;
        }
        let mut v = Sm90Variant {
            ab,
            cd,
            major_a,
            major_b,
            block_m,
            block_n,
            block_k: SWIZZLE_BYTES / ab.size_bytes() as u32,
            stages: 0,
            cluster_m: 1,
            cluster_n: 1,
            split_k: 1,
            ring_epilogue: false,
            consumers: 2,
            wide_pingpong: false,
        };
        v.stages = v.stages_for(smem_budget);
        (v.stages >= 2).then_some(v)
    }

    /// The solo 64 x `block_n` tile (`SOLO_TILES_N`) for these types and layouts, with the
    /// stages that fit two CTAs an SM; `None` where it is not built (`solo_built`): 16-bit
    /// inputs in every layout, tf32 with both operands K-major (TN; the kernel's solo path has
    /// no register-A form, kernels/sm90/gemm.cuh). The tf32 ones are planned by
    /// `plan::solo_for_short` (since session 62), by `plan::solo_split_for_few_tiles` only
    /// under `DEEPGEMM_SOLO_TF32=1`, and everywhere under `DEEPGEMM_SOLO=1` (`plan::solo_tf32`).
    pub fn solo_tile(
        ab: ScalarType,
        cd: ScalarType,
        layout: (Major, Major),
        block_n: u32,
    ) -> Option<Sm90Variant> {
        if !SOLO_TILES_N.contains(&block_n) {
            return None;
        }
        let tf32 = ab == ScalarType::F32;
        if !solo_built(ab, layout) {
            return None;
        }
        // The ping-pong 64x128 tile's checks of types and layouts (tf32 has no ping-pong
        // tile: checked as the cooperative 128x128), then one consumer.
        let mut v = if tf32 {
            let mut x = Sm90Variant::with_layout(ab, cd, layout, 128, 128, HOPPER_SMEM_BUDGET)?;
            x.block_m = 64;
            x
        } else {
            Sm90Variant::with_layout(ab, cd, layout, 64, 128, HOPPER_SMEM_BUDGET)?
        };
        v.block_n = block_n;
        v.consumers = 1;
        v.stages = v.stages_for(SOLO_SMEM_BUDGET);
        (v.stages >= 2).then_some(v)
    }

    /// The tall 192 x `block_n` tile (`TALL_TILES_N`) for these types and layouts, or `None`
    /// where it is not built: 16-bit in, both operands K-major.
    pub fn tall_tile(
        ab: ScalarType,
        cd: ScalarType,
        layout: (Major, Major),
        block_n: u32,
    ) -> Option<Sm90Variant> {
        if !TALL_TILES_N.contains(&block_n)
            || ab.size_bytes() != 2
            || layout != (Major::K, Major::K)
        {
            return None;
        }
        // The cooperative 128x128 tile's checks of types, then 192 rows of three consumers.
        let mut v = Sm90Variant::with_layout(ab, cd, layout, 128, 128, HOPPER_SMEM_BUDGET)?;
        v.block_m = TALL_BLOCK_M;
        v.block_n = block_n;
        v.consumers = 3;
        v.stages = v.stages_for(HOPPER_SMEM_BUDGET);
        (v.stages >= 2).then_some(v)
    }

    /// Whether this is a tall 192-row tile (three consumers; `tall_tile`).
    pub fn tall(&self) -> bool {
        self.consumers == 3
    }

    /// The column-split 192 x `block_n` tile (`COLUMN_SPLIT_TILES_N`) for these types and
    /// layouts, or `None` where it is not built: 16-bit in, B K-major (TN, and NN since session
    /// 77: an M-major A is three 128-byte chunks, one an m64 block; planned by default since
    /// session 78, `column_split_nn`).
    pub fn column_split_tile(
        ab: ScalarType,
        cd: ScalarType,
        layout: (Major, Major),
        block_n: u32,
    ) -> Option<Sm90Variant> {
        if !COLUMN_SPLIT_TILES_N.contains(&block_n) || ab.size_bytes() != 2 || layout.1 != Major::K
        {
            return None;
        }
        // The cooperative 128x128 tile's checks of types, then 192 rows of two consumers.
        let mut v = Sm90Variant::with_layout(ab, cd, layout, 128, 128, HOPPER_SMEM_BUDGET)?;
        v.block_m = TALL_BLOCK_M;
        v.block_n = block_n;
        v.stages = v.stages_for(HOPPER_SMEM_BUDGET);
        (v.stages >= 2).then_some(v)
    }

    /// The wide ping-pong 128 x `block_n` tile (`WIDE_PINGPONG_TILES_N`) for these types and
    /// layouts, or `None` where it is not built: 16-bit inputs.
    pub fn wide_pingpong_tile(
        ab: ScalarType,
        cd: ScalarType,
        layout: (Major, Major),
        block_n: u32,
    ) -> Option<Sm90Variant> {
        if !WIDE_PINGPONG_TILES_N.contains(&block_n) || ab.size_bytes() != 2 {
            return None;
        }
        let mut v = Sm90Variant::with_layout(ab, cd, layout, 128, block_n, HOPPER_SMEM_BUDGET)?;
        v.wide_pingpong = true;
        v.stages = v.stages_for(HOPPER_SMEM_BUDGET);
        (v.stages >= 2).then_some(v)
    }

    /// Whether this is a column-split 192-row tile (two consumers, each every row and half the
    /// columns; `column_split_tile`).
    pub fn column_split(&self) -> bool {
        self.block_m == TALL_BLOCK_M && self.consumers == 2
    }

    /// Columns of one consumer's accumulator blocks, the width its epilogue stores at a time:
    /// half the tile for a column split, else the tile's.
    pub fn epilogue_n(&self) -> u32 {
        if self.column_split() {
            self.block_n / 2
        } else {
            self.block_n
        }
    }

    /// The kernel's `c_full` mbarriers (`C_TMA_BARRIERS`, a third consumer's two more).
    pub fn c_tma_barriers(&self) -> u64 {
        C_TMA_BARRIERS / 2 * (self.consumers as u64).max(2)
    }

    /// The same tile with its epilogue staged in the ring's first stages (kernels/sm90/gemm.cuh
    /// `kRingEpilogue`), or `None` where that gains no stage or is not built: cooperative,
    /// unclustered tiles. Such a kernel runs one tile a CTA (data-parallel, no more tiles than
    /// CTAs: `streamk::decompositions`), so the ring is idle once its mainloop is done; the
    /// stage it frees goes to the mainloop (cuBLASLt runs 128x192 with 5 stages, the plain
    /// variant has 4 next to its 32 KiB of TMA-store staging). 16-bit in and out, TN only (both
    /// operands K-major): on the H200 (session 17) the ring variants ran 12% slower NN (an
    /// M-major A) at 1000x3000x4000 and 1% slower than their twins over ten TT shapes.
    /// The tall tiles take it unclustered and in their 1 x 2 clusters (session 68: three
    /// consumers' TMA-store staging, 48 KiB, held them to 4-5 stages where cuBLASLt's 192x72
    /// keeps 6; `68b`, H100: 0.947 of the plain twin's time over 255 pairs), and since then the
    /// 128-row tiles in their multicast clusters too (`with_ring_clusters`).
    pub fn with_ring_epilogue(self, smem_budget: u32) -> Option<Sm90Variant> {
        if self.ring_epilogue
            || self.deep()
            || self.ab.size_bytes() != 2
            || self.cd != self.ab
            || self.major_a != Major::K
            || self.major_b != Major::K
            || self.split_k != 1
            || !(self.block_m == 128 || self.tall())
            || self.pingpong()
            || matches!(self.block_n, 16 | 32)
        {
            return None;
        }
        let mut v = Sm90Variant {
            ring_epilogue: true,
            ..self
        };
        v.stages = v.stages_for(smem_budget);
        // The staging goes where the A tiles of the first stages are (`SharedStorage::a`).
        let a_ring = v.stages as u64 * (v.block_m * v.block_k) as u64 * v.ab.size_bytes() as u64;
        (v.stages > self.stages && a_ring >= self.epilogue_smem_bytes()).then_some(v)
    }

    /// The same kernel in clusters of `cluster_m` CTAs along m that share each B tile through
    /// TMA multicast (kernels/sm90/gemm.cuh), or `None` where it is not built: clusters of 2,
    /// tiles at least 128 wide (each CTA's share of B keeps the 1024-byte swizzle period).
    pub fn with_cluster(self, cluster_m: u32) -> Option<Sm90Variant> {
        if cluster_m == 1 {
            return Some(Sm90Variant { cluster_m, ..self });
        }
        // Ping-pong in clusters ran 4-10% behind unclustered on the H200 (set A, session 6): the
        // 64-row tiles have no cluster; the wide ones are built in 2 x 1 (their B multicast
        // brings their L2 bytes a multiply-add to 128 x 256's).
        (cluster_m == 2
            && self.multicast_size() == 1
            && self.split_k == 1
            && !self.ring_epilogue
            && !self.deep()
            && (((CLUSTER_TILES_N.contains(&self.block_n)
                || (CLUSTER_FILL_TILES_N.contains(&self.block_n) && self.major_b == Major::K))
                && self.block_m == 128)
                || self.column_split()))
        .then_some(Sm90Variant { cluster_m, ..self })
    }

    /// The same kernel in clusters of 2 x 2 CTAs (kernels/sm90/gemm.cuh): the two CTAs of a
    /// tile column share its B tile as in `with_cluster(2)`, and the two of a tile row its A
    /// tile; `None` where it is not built (tiles of `CLUSTER_2X2_TILES_N` that have a cluster of
    /// 2: each share of A, 64 rows or one 128-byte chunk, keeps the swizzle period).
    pub fn with_cluster_2x2(self) -> Option<Sm90Variant> {
        let v = self.with_cluster(2)?;
        // Not with A through registers: its share of an M-major tf32 A is unbuilt.
        (self.cluster_m == 1
            && CLUSTER_2X2_TILES_N.contains(&self.block_n)
            && !self.register_a()
            && !self.column_split()
            && !self.pingpong())
        .then_some(Sm90Variant { cluster_n: 2, ..v })
    }

    /// The same kernel in clusters of 1 x `cluster_n` CTAs along n (kernels/sm90/gemm.cuh): the
    /// CTAs of a tile row share its A tile, B is loaded by each as unclustered; `None` where it
    /// is not built: 16-bit tiles of `CLUSTER_N_TILES_N`, 2 or 4 CTAs (4 only for a K-major A,
    /// whose 32-row shares keep the swizzle period; an M-major A's 128 rows are two 128-byte
    /// chunks, one a CTA).
    pub fn with_cluster_n(self, cluster_n: u32) -> Option<Sm90Variant> {
        (matches!(cluster_n, 2 | 4)
            && (cluster_n == 2 || self.major_a == Major::K)
            && self.multicast_size() == 1
            && self.split_k == 1
            && !self.ring_epilogue
            && !self.deep()
            && !self.register_a()
            && !self.pingpong()
            && self.ab.size_bytes() == 2
            && ((self.block_m == 128 && CLUSTER_N_TILES_N.contains(&self.block_n))
                || (self.tall() && cluster_n == 2)
                // An M-major A's multicast shares of 192 rows are unbuilt (gemm.cuh).
                || (self.column_split() && cluster_n == 2 && self.major_a == Major::K)))
            .then_some(Sm90Variant { cluster_n, ..self })
    }

    /// `with_cluster_shape`, for ring-epilogue variants too: the ring twin of the plain tile's
    /// clustered twin (`None` where either is not built).
    pub fn clustered_twin(self, cm: u32, cn: u32) -> Option<Sm90Variant> {
        if !self.ring_epilogue {
            return self.with_cluster_shape(cm, cn);
        }
        let mut plain = Sm90Variant {
            ring_epilogue: false,
            ..self
        };
        plain.stages = plain.stages_for(HOPPER_SMEM_BUDGET);
        plain
            .with_cluster_shape(cm, cn)?
            .with_ring_epilogue(HOPPER_SMEM_BUDGET)
    }

    /// The twin of this unclustered variant in clusters of `cm` x `cn` (`with_cluster`,
    /// `with_cluster_2x2`, `with_cluster_n`), or `None` where it is not built.
    pub fn with_cluster_shape(self, cm: u32, cn: u32) -> Option<Sm90Variant> {
        match (cm, cn) {
            (1, 1) => Some(self),
            (2, 1) => self.with_cluster(2),
            (2, 2) => self.with_cluster_2x2(),
            (1, n) => self.with_cluster_n(n),
            _ => None,
        }
    }

    /// The same tile as a split-K cluster of `split_k` CTAs (kernels/sm90/gemm.cuh `kSplitK`), or
    /// `None` where it is not built: pairs, cooperative 128-row tiles of `SPLIT_K_TILES_N`
    /// without multicast or register A; the stages are recounted for the landing buffers.
    pub fn with_split_k(self, split_k: u32) -> Option<Sm90Variant> {
        if split_k == 1 {
            return Some(self);
        }
        if split_k != 2
            || self.split_k != 1
            || self.deep()
            || self.multicast_size() != 1
            || self.block_m != 128
            || self.register_a()
            || self.pingpong()
            || !SPLIT_K_TILES_N.contains(&self.block_n)
        {
            return None;
        }
        let mut v = Sm90Variant { split_k, ..self };
        v.stages = v.stages_for(HOPPER_SMEM_BUDGET);
        (v.stages >= 2).then_some(v)
    }

    /// The same tile with 128-deep stages (BLOCK_K 128 for 16-bit inputs: two 128-byte slabs of
    /// k a stage, kernels/sm90/gemm.cuh `OperandTile::kSlabs`; K-major operands load one box a
    /// slab), the stages recounted in the same shared memory; `None` where not built (tf32 but
    /// the TN solo tiles; clustered, split-K, ring-epilogue and ping-pong variants; their constructors refuse a
    /// deep one likewise) or when fewer than two stages fit. Session 44: the mainloop alone (scripts/probes/mainloop.cu, operands in L2) ran a
    /// 64x64 tile's 64 k in 366 cycles with such stages against 568 with 64-deep ones, 128x64
    /// 506 against 742, 128x128 705 against 847 (half the barrier round trips and wgmma
    /// batches a k). Planned only under `DEEPGEMM_DEEP=1` (`deep_forced`) until the kernel is
    /// measured.
    pub fn with_deep_stages(self) -> Option<Sm90Variant> {
        if self.deep()
            // fp32 in (tf32): the solo tiles only, TN only (`solo_built`).
            || (self.ab.size_bytes() != 2
                && !(self.solo() && solo_built(self.ab, (self.major_a, self.major_b))))
            || self.multicast_size() != 1
            || self.split_k != 1
            || self.ring_epilogue
            || self.pingpong()
            || self.tall()
            || self.column_split()
        {
            return None;
        }
        let mut v = Sm90Variant {
            block_k: 2 * self.block_k,
            ..self
        };
        v.stages = v.stages_for(if self.solo() {
            SOLO_SMEM_BUDGET
        } else {
            HOPPER_SMEM_BUDGET
        });
        (v.stages >= 2).then_some(v)
    }

    /// k-steps of one 128-byte slab (64 16-bit or 32 fp32 values) over `k`: what the planner's
    /// thresholds on a mainloop's length count, whatever the stage's depth.
    pub fn slab_steps(&self, k: u64) -> u64 {
        k.div_ceil((SWIZZLE_BYTES / self.ab.size_bytes() as u32) as u64)
            .max(1)
    }

    /// Whether a stage holds two 128-byte slabs of k (`with_deep_stages`).
    pub fn deep(&self) -> bool {
        self.block_k * self.ab.size_bytes() as u32 > SWIZZLE_BYTES
    }

    /// Whether A reaches wgmma through registers (tf32 with an M-major A, which PTX's tf32 wgmma
    /// cannot read from shared memory): kernels/sm90/gemm.cuh `kRegA`.
    pub fn register_a(&self) -> bool {
        self.ab == ScalarType::F32 && self.major_a == Major::MN
    }

    /// Whether the consumers run ping-pong (one 64-row tile each, or one 128-row tile each on
    /// the wide tiles, in turn) instead of cooperatively (64 rows each of one 128-row tile):
    /// kernels/sm90/gemm.cuh `kPingPong`.
    pub fn pingpong(&self) -> bool {
        (self.block_m == 64 && self.consumers == 2) || self.wide_pingpong
    }

    /// Whether one consumer warpgroup computes whole 64-row tiles, two CTAs an SM
    /// (kernels/sm90/gemm.cuh `kSolo`, `SOLO_TILES_N`).
    pub fn solo(&self) -> bool {
        self.consumers == 1
    }

    /// Threads per CTA: a producer warpgroup and the consumers (the entry's launch bounds).
    pub fn threads(&self) -> u32 {
        128 * (1 + self.consumers)
    }

    /// CTAs resident on one SM (`grid` launches as many an SM): two for a solo tile whose ring
    /// is half the SM's shared memory (`solo_tile`), else one (`with_full_ring`).
    pub fn ctas_per_sm(&self) -> u32 {
        if self.solo() && self.smem_bytes() <= SOLO_SMEM_BUDGET as u64 {
            2
        } else {
            1
        }
    }

    /// The entry's `__launch_bounds__` minimum blocks an SM: 2 for every solo tile, so its
    /// registers at entry are 128 whatever its ring (the kernel's setmaxnreg split,
    /// kernels/sm90/gemm.cuh `kConsumerRegs`, is written for that), else 1. A full-ring solo
    /// tile still runs one CTA an SM: its shared memory decides (`ctas_per_sm`).
    pub fn launch_min_blocks(&self) -> u32 {
        if self.solo() { 2 } else { 1 }
    }

    /// This 64-deep solo tile with 128-deep stages and the whole SM's shared memory for its
    /// ring, one CTA an SM (`ctas_per_sm`), or `None` for other variants: the mainloop probe's
    /// configuration (`scripts/probes/mainloop.cu`, session 44: one 64x64 consumer warpgroup
    /// with six 128-deep stages ran a 64-k in 366 cycles against 568 with 64-deep ones, the solo
    /// kernel's ~565; cuBLASLt's 64x64 ~320), where the half-ring twin (`with_deep_stages`)
    /// holds two stages. (Session 43 built full rings for the 64-deep solo tiles, `7e0f280`:
    /// 64x64 unchanged at 13 stages, so not those.) The 64x64 one is `plan::solo_for_short`'s
    /// tile (session 46: 0.79-0.88 of the half ring's time where its tiles fit one wave,
    /// 1.05-1.17x where not); otherwise planned only under `DEEPGEMM_DEEP=1` with
    /// `DEEPGEMM_SOLO=1` (the 64x128 in ping-pong's place: 1.007, not taken).
    pub fn with_full_ring(self) -> Option<Sm90Variant> {
        if !self.solo() || self.deep() || !solo_built(self.ab, (self.major_a, self.major_b)) {
            return None;
        }
        let mut v = Sm90Variant {
            block_k: 2 * self.block_k,
            ..self
        };
        v.stages = v.stages_for(HOPPER_SMEM_BUDGET);
        // More than the half ring could hold, so that it runs one CTA an SM.
        (v.smem_bytes() > SOLO_SMEM_BUDGET as u64 && v.stages >= 2).then_some(v)
    }

    /// CTAs per multicast cluster (`cluster_m` x `cluster_n`; 1 for split-K clusters and
    /// unclustered variants): the CTAs that walk one scheduler unit together.
    pub fn multicast_size(&self) -> u32 {
        self.cluster_m.max(1) * self.cluster_n.max(1)
    }

    /// CTAs per cluster.
    pub fn cluster_size(&self) -> u32 {
        self.cluster_m * self.cluster_n * self.split_k
    }

    /// The operand layouts in cuBLAS column-major terms: "tn" (both K-major), "nn", "tt", "nt".
    pub fn layout_tag(&self) -> &'static str {
        match (self.major_a, self.major_b) {
            (Major::K, Major::K) => "tn",
            (Major::MN, Major::K) => "nn",
            (Major::K, Major::MN) => "tt",
            (Major::MN, Major::MN) => "nt",
        }
    }

    /// The variant's name: its `extern "C"` entry symbol, cache-key prefix and log label, e.g.
    /// `dg_sm90_bf16_bf16_tn_m128n256k64_s4_c1x1`, with `_ks2` for a split-K cluster. Derived,
    /// never written by hand.
    pub fn name(&self) -> String {
        let mut split = if self.split_k > 1 {
            format!("_ks{}", self.split_k)
        } else {
            String::new()
        };
        if self.ring_epilogue {
            split.push_str("_re");
        }
        if self.solo() {
            split.push_str("_w1");
        }
        if self.column_split() {
            split.push_str("_cs");
        }
        if self.wide_pingpong {
            split.push_str("_pp");
        }
        format!(
            "dg_sm90_{}_{}_{}_m{}n{}k{}_s{}_c{}x{}{split}",
            self.ab.tag(),
            self.cd.tag(),
            self.layout_tag(),
            self.block_m,
            self.block_n,
            self.block_k,
            self.stages,
            self.cluster_m,
            self.cluster_n
        )
    }

    /// Bytes of one pipeline stage: an A tile and a B tile.
    pub fn stage_bytes(&self) -> u64 {
        (self.block_m as u64 + self.block_n as u64)
            * self.block_k as u64
            * self.ab.size_bytes() as u64
    }

    /// Bytes of a stage this CTA asks the L2 for: its share of A and of B where they are
    /// multicast (1 / cluster_n of A, 1 / cluster_m of B), the whole stage otherwise.
    pub fn l2_stage_bytes(&self) -> u64 {
        (self.block_m as u64 / self.cluster_n.max(1) as u64
            + self.block_n as u64 / self.cluster_m.max(1) as u64)
            * self.block_k as u64
            * self.ab.size_bytes() as u64
    }

    /// Shared memory of the epilogue: the general path's staging or, for 16-bit D, the
    /// TMA-store path's, whichever is larger (a launch uses one of them, so they share it).
    /// kernels/sm90/gemm.cuh `EpilogueSmem`.
    pub fn epilogue_smem_bytes(&self) -> u64 {
        if self.ring_epilogue {
            // The kernel's placeholder (`SharedStorage::epilogue`); the staging is in the ring.
            RING_EPILOGUE_PLACEHOLDER_BYTES
        } else if self.has_tma_store() {
            self.consumers as u64
                * EPILOGUE_SMEM_BYTES_PER_CONSUMER.max(TMA_STORE_SMEM_BYTES_PER_CONSUMER)
        } else {
            self.consumers as u64 * EPILOGUE_SMEM_BYTES_PER_CONSUMER
        }
    }

    /// Shared memory staging a tile's bias along n as fp32, one copy per consumer warpgroup
    /// (kernels/sm90/gemm.cuh `TmaBiasCol`), in the variants whose TMA-store epilogue adds it.
    pub fn bias_col_smem_bytes(&self) -> u64 {
        if self.tma_bias_col() {
            self.consumers as u64 * self.block_n as u64 * 4
        } else {
            0
        }
    }

    /// Whether the variant has the TMA-store epilogue (kernels/sm90/gemm.cuh `CanTmaStore`):
    /// 16-bit D, tiles at least 64 wide.
    pub fn has_tma_store(&self) -> bool {
        self.cd.size_bytes() == 2 && self.epilogue_n() >= STORE_BOX && self.epilogue_n() % 8 == 0
    }

    /// Whether the TMA-store epilogue adds a bias along n (a swapped problem's; kernels/sm90/
    /// gemm.cuh `TmaBiasCol`): every launch of the 128 x 64 tiles, and on the 128-row tiles
    /// of widths a multiple of 16 up to MAX_WIDE_BIAS_COL_TILE, the launches with such a bias
    /// (instantiations only they take: built into every launch it cost the plain epilogues
    /// 2-8%, session 34; at 248 and 256 wide, and in the 8-past-16 widths and the ping-pong
    /// tiles, it spilled); not the ring-epilogue or split-K-cluster variants over 64 wide
    /// (they read no C by TMA: with beta != 0 their launches take the general epilogue,
    /// which adds it up to MAX_BIAS_ALONG_N_TILE only).
    /// The tile's bias is staged in shared memory (`bias_col_smem_bytes`).
    pub fn tma_bias_col(&self) -> bool {
        self.has_tma_store()
            && self.block_m == 128
            && !self.wide_pingpong
            && (self.block_n <= MAX_BIAS_ALONG_N_TILE
                || (self.block_n <= MAX_WIDE_BIAS_COL_TILE
                    && self.block_n % 16 == 0
                    && !self.ring_epilogue
                    && self.split_k == 1))
    }

    /// The columns per TMA store of this variant's launches on `p` (`store_box_cols`), or
    /// `None` where they never take the TMA-store epilogue: no such epilogue, or a bias along n
    /// it does not add (`tma_bias_col`).
    pub fn tma_store_cols(&self, p: &GemmProblem) -> Option<u32> {
        let bias_col = p.epilogue.bias && p.bias_along_n;
        (self.has_tma_store() && (!bias_col || self.tma_bias_col())).then(|| self.store_box_cols())
    }

    /// Columns per TMA store (kernels/sm90/store.cuh `StoreShape::kStoreCols`): whole 64-column
    /// boxes where a consumer's block (`epilogue_n`) is made of them, else 16, or 8 for a width
    /// 8 past a multiple of 16.
    pub fn store_box_cols(&self) -> u32 {
        if self.epilogue_n() % STORE_BOX == 0 {
            STORE_BOX
        } else if self.epilogue_n() % 16 == 0 {
            16
        } else {
            8
        }
    }

    /// A split-K cluster's landing buffer for the peer's partial of the consumer this CTA
    /// finishes (kernels/sm90/gemm.cuh `SplitLanding`): 64 x block_n fp32; 0 otherwise.
    pub fn split_landing_bytes(&self) -> u64 {
        if self.split_k > 1 {
            (self.split_k as u64 - 1) * 64 * self.block_n as u64 * 4
        } else {
            0
        }
    }

    /// Dynamic shared memory of the kernel with `stages` stages: the tiles, then the epilogue
    /// staging (and a split-K cluster's landing buffers) and the full/empty and turn mbarriers
    /// (8 bytes each), padded to the 1024-byte alignment of the storage struct, and the
    /// alignment slack. The kernel static_asserts `sizeof(SharedStorage) + 1024` equals this.
    pub fn smem_bytes_with(&self, stages: u32) -> u64 {
        self.smem_bytes_staging(stages, self.bias_col_smem_bytes())
    }

    /// `smem_bytes_with` for `bias_col_bytes` of bias staging (`bias_col_smem_bytes`; the
    /// tail holding it is rounded to 1 KiB after it is added).
    fn smem_bytes_staging(&self, stages: u32, bias_col_bytes: u64) -> u64 {
        // full[] and empty[] per stage, then the two ping-pong turn barriers (and a split-K
        // cluster's four hand-over barriers), then C's (`C_TMA_BARRIERS`).
        let turns = if self.split_k > 1 { 6 } else { 2 };
        let tail = (self.epilogue_smem_bytes()
            + self.split_landing_bytes()
            + bias_col_bytes
            + 2 * 8 * stages as u64
            + 8 * turns
            + 8 * self.c_tma_barriers())
        .next_multiple_of(1024);
        stages as u64 * self.stage_bytes() + tail + SMEM_ALIGN_SLACK
    }

    /// Dynamic shared memory of this variant (the launch's `sharedMemBytes`).
    pub fn smem_bytes(&self) -> u64 {
        self.smem_bytes_with(self.stages)
    }

    /// The most stages whose shared memory fits in `smem_budget` bytes (0 if none).
    pub fn stages_for(&self, smem_budget: u32) -> u32 {
        let mut s = (smem_budget as u64 / self.stage_bytes()) as u32;
        while s > 0 && self.smem_bytes_with(s) > smem_budget as u64 {
            s -= 1;
        }
        s
    }

    /// Every sm90 variant the library can launch (CI compiles each of them): bf16 and fp16 in,
    /// the input type or fp32 out, each layout of `LAYOUTS` and tile of `TILES`; tf32 (fp32 in
    /// and out) with each tile, TN only. Stages for the Hopper budget. A copy of `all_static`.
    pub fn all() -> Vec<Sm90Variant> {
        Self::all_static().to_vec()
    }

    /// `all`, built once: the planner scans it for every problem it plans, and a packed
    /// problem's slab levels plan dozens of blocks (building the list each time was ~15% of
    /// a 4097³ plan's 15 ms, session 79).
    pub fn all_static() -> &'static [Sm90Variant] {
        static ALL: once_cell::sync::Lazy<Vec<Sm90Variant>> =
            once_cell::sync::Lazy::new(Sm90Variant::build_all);
        &ALL
    }

    fn build_all() -> Vec<Sm90Variant> {
        let mut v = Vec::new();
        for ab in [ScalarType::BF16, ScalarType::F16, ScalarType::F32] {
            let cds: &[ScalarType] = if ab == ScalarType::F32 {
                &[ScalarType::F32]
            } else {
                &[ab, ScalarType::F32]
            };
            for &cd in cds {
                for layout in LAYOUTS {
                    for (bm, bn) in TILES
                        .into_iter()
                        .chain(FILL_TILES)
                        .chain(NARROW_TILES)
                        .chain(PINGPONG_TILES)
                    {
                        let base =
                            Sm90Variant::with_layout(ab, cd, layout, bm, bn, HOPPER_SMEM_BUDGET);
                        v.extend(base);
                        let clustered = [
                            base.and_then(|b| b.with_cluster(2)),
                            base.and_then(|b| b.with_cluster_2x2()),
                            base.and_then(|b| b.with_cluster_n(2)),
                            base.and_then(|b| b.with_cluster_n(4)),
                        ];
                        v.extend(clustered.into_iter().flatten());
                        v.extend(base.and_then(|b| b.with_split_k(2)));
                        v.extend(base.and_then(|b| b.with_ring_epilogue(HOPPER_SMEM_BUDGET)));
                        // Ring epilogues of the multicast clusters (`with_ring_clusters`).
                        for c in clustered.into_iter().flatten() {
                            v.extend(c.with_ring_epilogue(HOPPER_SMEM_BUDGET));
                        }
                        // 128-deep stages of the cooperative and narrow tiles (opt-in).
                        if TILES.contains(&(bm, bn)) || NARROW_TILES.contains(&(bm, bn)) {
                            v.extend(base.and_then(|b| b.with_deep_stages()));
                        }
                    }
                    for bn in SOLO_TILES_N {
                        let solo = Sm90Variant::solo_tile(ab, cd, layout, bn);
                        v.extend(solo);
                        v.extend(solo.and_then(|b| b.with_deep_stages()));
                        v.extend(solo.and_then(Sm90Variant::with_full_ring));
                    }
                    for bn in COLUMN_SPLIT_TILES_N {
                        let cs = Sm90Variant::column_split_tile(ab, cd, layout, bn);
                        v.extend(cs);
                        v.extend(cs.and_then(|b| b.with_cluster(2)));
                        v.extend(cs.and_then(|b| b.with_cluster_n(2)));
                    }
                    for bn in WIDE_PINGPONG_TILES_N {
                        let pp = Sm90Variant::wide_pingpong_tile(ab, cd, layout, bn);
                        v.extend(pp);
                        v.extend(pp.and_then(|b| b.with_cluster(2)));
                    }
                    for bn in TALL_TILES_N {
                        let tall = Sm90Variant::tall_tile(ab, cd, layout, bn);
                        let tall_1x2 = tall.and_then(|b| b.with_cluster_n(2));
                        v.extend(tall);
                        v.extend(tall_1x2);
                        v.extend(tall.and_then(|b| b.with_ring_epilogue(HOPPER_SMEM_BUDGET)));
                        v.extend(tall_1x2.and_then(|b| b.with_ring_epilogue(HOPPER_SMEM_BUDGET)));
                    }
                }
            }
        }
        v
    }

    /// The leading dimension (elements between consecutive lines of the contiguous dimension)
    /// of op(A) and op(B) under this variant's layouts, or why the problem's strides differ.
    pub fn leading_dims(&self, p: &GemmProblem) -> Result<(i64, i64), String> {
        let lda = match self.major_a {
            Major::K if p.a.col == 1 => p.a.row,
            Major::MN if p.a.row == 1 => p.a.col,
            Major::K => return Err("op(A) is not K-major (transa = T for column-major A)".into()),
            Major::MN => return Err("op(A) is not M-major (transa = N for column-major A)".into()),
        };
        let ldb = match self.major_b {
            Major::K if p.b.row == 1 => p.b.col,
            Major::MN if p.b.col == 1 => p.b.row,
            Major::K => return Err("op(B) is not K-major (transb = N for column-major B)".into()),
            Major::MN => return Err("op(B) is not N-major (transb = T for column-major B)".into()),
        };
        Ok((lda, ldb))
    }

    /// Why this variant cannot run `p` (`Err` with a reason for the plan log), or `Ok`.
    pub fn check(&self, p: &GemmProblem) -> Result<(), String> {
        let math = math_for(self.ab);
        if !self.takes_types(p) {
            return Err(format!(
                "types {:?}/{:?} ({:?}) are not this variant's {:?}/{:?} ({:?})",
                p.ab_type, p.cd_type, p.math, self.ab, self.cd, math
            ));
        }
        if p.m == 0 || p.n == 0 || p.k == 0 {
            return Err("empty problem or k = 0".into());
        }
        if wide_bias_col(self, p) {
            // The general epilogue adds it up to 64 columns only, so a wider tile must take
            // the TMA-store epilogue: D through TMA, and C loaded by TMA for a beta != 0 (the
            // heuristic's algo must run whatever beta the call brings). Their layouts here,
            // the addresses at the call (`wide_bias_col_accepts`). Data-parallel only: a
            // Stream-K owner's epilogue is not built with it (`streamk::decompositions`).
            let why = if !self.tma_bias_col() {
                Some(format!(
                    "its TMA-store epilogue does not add it (128-row tiles of widths a \
                     multiple of 16 up to {MAX_WIDE_BIAS_COL_TILE} do)"
                ))
            } else {
                tma_store(p, TMA_STRIDE_ALIGN, Scalar::Host(0.0))
                    .and_then(|l| c_tma(p, TMA_STRIDE_ALIGN, l))
                    .err()
            };
            if let Some(why) = why {
                return Err(format!(
                    "a bias along n (swapped problem) takes tiles over \
                     {MAX_BIAS_ALONG_N_TILE} wide only through the TMA-store epilogue: {why}"
                ));
            }
        }
        if p.m > MAX_DIM || p.n > MAX_DIM || p.k > MAX_DIM || p.batch > MAX_DIM {
            return Err("a dimension exceeds TMA's 32-bit coordinates".into());
        }
        // The kernel's scheduler counts tiles and Stream-K iterations in 32 bits.
        let k_iters = p.k.div_ceil(self.block_k as u64).max(1);
        if self.split_k > 1 && k_iters < self.split_k as u64 {
            return Err(format!(
                "a split-K cluster of {} needs at least {} k-iterations ({k_iters})",
                self.split_k, self.split_k
            ));
        }
        if self.num_tiles(p).saturating_mul(k_iters) > i32::MAX as u64 - SCHEDULER_HEADROOM {
            return Err("tiles x k-iterations exceed the scheduler's 32-bit counters".into());
        }
        let (lda, ldb) = self.leading_dims(p).map_err(|why| {
            if math == Math::MmaTf32 {
                format!(
                    "{why}; tf32 wgmma reads B K-major only (PTX has no transpose for .tf32; an \
                     M-major A goes through registers), so the portable kernel runs it"
                )
            } else {
                why
            }
        })?;
        let elem = self.ab.size_bytes() as u64;
        for (name, ld, batch_stride) in [("A", lda, p.a.batch), ("B", ldb, p.b.batch)] {
            tma_stride_ok(ld, elem).map_err(|e| format!("{name}: leading dimension {ld} {e}"))?;
            if p.batch > 1 {
                tma_stride_ok(batch_stride, elem)
                    .map_err(|e| format!("{name}: batch stride {batch_stride} {e}"))?;
            }
        }
        Ok(())
    }

    /// True when this variant computes `p` (types, transposes, TMA stride rules, sizes).
    pub fn fits(&self, p: &GemmProblem) -> bool {
        // Most of `all()` differ from `p` in types: refuse those before `check` formats its
        // reason (the packed planner asks this thousands of times a problem).
        self.takes_types(p) && self.check(p).is_ok()
    }

    /// `p`'s A/B and C/D types and math are this variant's (`check`'s first rule).
    fn takes_types(&self, p: &GemmProblem) -> bool {
        p.math == math_for(self.ab) && p.ab_type == self.ab && p.cd_type == self.cd
    }

    /// True when the device can run this variant: sm_90 (the `a` features) and enough
    /// opt-in shared memory.
    pub fn fits_device(&self, dev: &DeviceSpec) -> bool {
        dev.cc_major == 9
            && dev.cc_minor == 0
            && self.smem_bytes() <= dev.smem_per_block as u64
            // A share of the SMs (`DeviceSpec::with_sm_target`) holds whole clusters only.
            && dev.resident_clusters(self.cluster_size().max(1)) > 0
    }

    /// TMA reads A and B from 16-byte aligned base addresses. (C, D and bias need only their
    /// element alignment, which `GemmPointers::check` enforces.)
    pub fn pointers_fit(ptrs: &GemmPointers) -> bool {
        ptrs.a % TMA_STRIDE_ALIGN == 0 && ptrs.b % TMA_STRIDE_ALIGN == 0
    }

    /// The scheduler's units along m and n in one batch: tiles, or for a multicast cluster
    /// blocks of `cluster_m` x `cluster_n` tiles (kernels/sm90/gemm.cuh walks these;
    /// `Sm90Params::set_tiles` passes them on).
    pub fn tile_blocks(&self, p: &GemmProblem) -> (u64, u64) {
        (
            p.m.div_ceil(self.block_m as u64 * self.cluster_m.max(1) as u64),
            p.n.div_ceil(self.block_n as u64 * self.cluster_n.max(1) as u64),
        )
    }

    /// Output tiles over all batches; for a cluster variant, whole clusters' worth (the tile
    /// rows and columns rounded up to multiples of the cluster's, as the kernel's scheduler
    /// blocks them).
    pub fn num_tiles(&self, p: &GemmProblem) -> u64 {
        let (blocks_m, blocks_n) = self.tile_blocks(p);
        blocks_m * blocks_n * self.multicast_size() as u64 * p.batch
    }

    /// Persistent grid: one CTA per SM (two for solo tiles, but one on a share of the SMs:
    /// `DeviceSpec::partial`), fewer when there are fewer tiles (a split-K cluster's
    /// `split_k` CTAs per tile); whole clusters, as many as the device holds at once.
    pub fn grid(&self, p: &GemmProblem, dev: &DeviceSpec) -> u32 {
        let cs = self.cluster_size().max(1);
        let per_sm = dev.ctas_per_sm(self.ctas_per_sm());
        let sms = (dev.resident_clusters(cs).max(1) * cs * per_sm) as u64;
        (self.num_tiles(p) * self.split_k.max(1) as u64).clamp(1, sms) as u32
    }
}

/// How D is laid out for the TMA-store epilogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StoreLayout {
    /// Unit stride along m (cuBLAS's column-major): the tensor map is (m, n, batch).
    ColMajor,
    /// Unit stride along n: the tensor map is (n, m, batch).
    RowMajor,
}

impl StoreLayout {
    /// D's leading dimension (elements between lines of the contiguous dimension) and the
    /// (inner, outer) extents of the tensor map.
    pub fn dims(self, p: &GemmProblem) -> (i64, u64, u64) {
        match self {
            StoreLayout::ColMajor => (p.d.col, p.m, p.n),
            StoreLayout::RowMajor => (p.d.row, p.n, p.m),
        }
    }
}

/// The TMA-store side of a launch's flags (`runtime::tensor_map::Sm90Params::new_with`) for a
/// variant storing `cols` columns at a time (`Sm90Variant::store_box_cols`): D's layout when the
/// host marks D as TMA-storable (SM90_FLAG_TMA_STORE; the kernel still needs beta = 0 or C by
/// TMA), and whether C's map is given (SM90_FLAG_C_TMA). `padded_d`: D is deepgemm's aligned
/// copy. C is loaded into a row-major D's 16-column slabs too (its map then has D's slab box,
/// `runtime::tensor_map::encode_c_args`), not into 8-column ones (kernels/sm90/store.cuh).
pub fn store_flags(
    p: &GemmProblem,
    ptrs: &GemmPointers,
    padded_d: bool,
    cols: u32,
) -> (Option<StoreLayout>, bool) {
    let layout = tma_store_with(p, ptrs.d, Scalar::Host(0.0), padded_d).ok();
    let beta_zero = matches!(ptrs.beta, Scalar::Host(b) if b == 0.0);
    // Not at beta = 0 (C unread), not into a padded copy of D, not into 8-column slabs.
    let c_ok = layout.is_some_and(|l| {
        let slabs_of_8 = l == StoreLayout::RowMajor && cols == 8;
        !(beta_zero || padded_d || slabs_of_8) && c_tma(p, ptrs.c, l).is_ok()
    });
    let beta_ok = beta_zero || matches!(ptrs.beta, Scalar::Device(_)) || c_ok;
    (layout.filter(|_| beta_ok), c_ok)
}

/// Whether `v` runs `p` with a bias along n (a swapped problem's) on a tile wider than the
/// general epilogue adds it on (MAX_BIAS_ALONG_N_TILE, kernels/sm90/epilogue.cuh
/// `kCanBiasCol`): only the TMA-store epilogue computes it right (`Sm90Variant::check`).
pub fn wide_bias_col(v: &Sm90Variant, p: &GemmProblem) -> bool {
    p.epilogue.bias && p.bias_along_n && v.block_n > MAX_BIAS_ALONG_N_TILE
}

/// Whether a launch of `v` on `p` (`wide_bias_col`) with `ptrs` takes the TMA-store epilogue
/// with the bias: D's address for TMA, and unless beta = 0 on the host, C's (a beta on the
/// device may be nonzero; the general epilogue a launch without C's map falls back to adds no
/// bias along n on these tiles). The layouts were checked when the plan was made.
pub fn wide_bias_col_accepts(v: &Sm90Variant, p: &GemmProblem, ptrs: &GemmPointers) -> bool {
    let Some(cols) = v.tma_store_cols(p) else {
        return false;
    };
    let beta_zero = matches!(ptrs.beta, Scalar::Host(b) if b == 0.0);
    let (layout, c_ok) = store_flags(p, ptrs, false, cols);
    layout.is_some() && (beta_zero || c_ok)
}

/// The kernel's `c_full` mbarriers (kernels/sm90/gemm.cuh `SharedStorage::kCBarriers`): one per
/// TMA-store staging buffer (2) of each consumer warpgroup (2; 3 in the tall tiles,
/// `Sm90Variant::c_tma_barriers`), in every variant.
pub const C_TMA_BARRIERS: u64 = 4;

/// Whether the TMA-store epilogue can write D of `p` at `d_address` (`Ok` with D's layout), or
/// why the general epilogue must (`Err`, for the plan log). The rules: 16-bit D (stmatrix and
/// the kernel's staging are 16-bit), beta = 0 (C is not read; a device-side beta is checked by
/// the kernel, which falls back to the general path when it is not 0), unit stride along m or
/// n, and TMA's alignment: a 16-byte aligned address, leading dimension and batch stride.
/// Independent of the variant: every sm90 variant with this D type has both epilogues.
pub fn tma_store(p: &GemmProblem, d_address: u64, beta: Scalar) -> Result<StoreLayout, String> {
    tma_store_with(p, d_address, beta, false)
}

/// As `tma_store`; `padded`: D is deepgemm's own aligned copy in the workspace (`plan::pack`),
/// whose lines end in padding that may be overwritten, so a contiguous extent that ends inside
/// a 16-byte unit is fine (the tensor map then spans the whole padded line).
pub fn tma_store_with(
    p: &GemmProblem,
    d_address: u64,
    beta: Scalar,
    padded: bool,
) -> Result<StoreLayout, String> {
    store_refusal(p, d_address, beta, padded).map_err(|r| r.to_string())
}

/// `tma_store_with(..).is_ok()` without formatting a reason: the cost model asks it for every
/// variant and schedule it prices (a packed problem's slab levels: thousands of times).
pub fn tma_store_ok(p: &GemmProblem, d_address: u64, beta: Scalar, padded: bool) -> bool {
    store_refusal(p, d_address, beta, padded).is_ok()
}

/// Why the TMA-store epilogue cannot write D (`tma_store_with`), formatted only when asked.
#[derive(Clone, Copy, Debug)]
enum StoreRefusal {
    Type(ScalarType),
    Beta,
    Address(u64),
    Ld(i64, &'static str),
    NoUnitStride,
    BatchStride(i64, &'static str),
    Ragged(u64),
}

impl std::fmt::Display for StoreRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Self::Type(t) => write!(f, "{t:?} output (TMA stores 16-bit D only)"),
            Self::Beta => write!(f, "beta != 0 (C is read)"),
            Self::Address(a) => write!(f, "D = {a:#x} is not 16-byte aligned"),
            Self::Ld(ld, e) => write!(f, "D: leading dimension {ld} {e}"),
            Self::NoUnitStride => write!(f, "D has no unit stride"),
            Self::BatchStride(s, e) => write!(f, "D: batch stride {s} {e}"),
            Self::Ragged(inner) => write!(
                f,
                "D's contiguous extent {inner} is not a multiple of 16 bytes (TMA stores whole \
                 16-byte units)"
            ),
        }
    }
}

fn store_refusal(
    p: &GemmProblem,
    d_address: u64,
    beta: Scalar,
    padded: bool,
) -> Result<StoreLayout, StoreRefusal> {
    if p.cd_type.size_bytes() != 2 {
        return Err(StoreRefusal::Type(p.cd_type));
    }
    if let Scalar::Host(b) = beta {
        if b != 0.0 {
            return Err(StoreRefusal::Beta);
        }
    }
    if d_address == 0 || d_address % TMA_STRIDE_ALIGN != 0 {
        return Err(StoreRefusal::Address(d_address));
    }
    let elem = p.cd_type.size_bytes() as u64;
    let layout = match (p.d.row, p.d.col) {
        (1, ld) => tma_stride_ok(ld, elem)
            .map(|()| StoreLayout::ColMajor)
            .map_err(|e| StoreRefusal::Ld(ld, e))?,
        (ld, 1) => tma_stride_ok(ld, elem)
            .map(|()| StoreLayout::RowMajor)
            .map_err(|e| StoreRefusal::Ld(ld, e))?,
        _ => return Err(StoreRefusal::NoUnitStride),
    };
    if p.batch > 1 {
        tma_stride_ok(p.d.batch, elem).map_err(|e| StoreRefusal::BatchStride(p.d.batch, e))?;
    }
    // TMA stores clip at the tensor's edge in whole 16-byte units along the contiguous
    // dimension: with n = 255 row-major (a 510-byte line) the last unit's padding element was
    // written (seen on the H200, 2026-11-29, deepgemm's GPU grid). Ragged lines take the
    // general epilogue.
    let (_, inner, _) = layout.dims(p);
    if !padded && inner * elem % TMA_STRIDE_ALIGN != 0 {
        return Err(StoreRefusal::Ragged(inner));
    }
    Ok(layout)
}

/// Whether the TMA-store epilogue can load C of `p` at `c_address` by TMA when D takes it in
/// `layout` (beta != 0: the kernel's SM90_FLAG_C_TMA, C's boxes loaded into the staging D's
/// boxes are stored from, kernels/sm90/store.cuh), or why C must be read by the general
/// epilogue (`Err`). C needs D's layout (the boxes are D's), a 16-byte aligned address, and a
/// leading dimension and batch stride TMA takes; a C shared by every batch (batch stride 0)
/// has no tensor map.
pub fn c_tma(p: &GemmProblem, c_address: u64, layout: StoreLayout) -> Result<(), String> {
    if c_address == 0 || c_address % TMA_STRIDE_ALIGN != 0 {
        return Err(format!("C = {c_address:#x} is not 16-byte aligned"));
    }
    let elem = p.cd_type.size_bytes() as u64;
    let ld = match (layout, p.c.row, p.c.col) {
        (StoreLayout::ColMajor, 1, ld) | (StoreLayout::RowMajor, ld, 1) => ld,
        _ => return Err(format!("C's layout is not D's ({layout:?})")),
    };
    tma_stride_ok(ld, elem).map_err(|e| format!("C: leading dimension {ld} {e}"))?;
    if p.batch > 1 {
        tma_stride_ok(p.c.batch, elem).map_err(|e| format!("C: batch stride {} {e}", p.c.batch))?;
    }
    Ok(())
}

/// Whether a stride of `stride_elems` elements of `elem` bytes suits TMA (positive, a multiple of
/// 16 bytes, below 2^40 bytes), or which rule it breaks.
pub(crate) fn tma_stride_ok(stride_elems: i64, elem: u64) -> Result<(), &'static str> {
    if stride_elems <= 0 {
        return Err("is not positive");
    }
    let bytes = (stride_elems as u64).saturating_mul(elem);
    if bytes % TMA_STRIDE_ALIGN != 0 {
        return Err("is not a multiple of 16 bytes (TMA)");
    }
    if bytes >= TMA_MAX_STRIDE {
        return Err("is 2^40 bytes or more (TMA)");
    }
    Ok(())
}

/// The scheduler's tile order, as kernels/sm90/scheduler.cuh computes it: linear tile `t` ->
/// (m_tile, n_tile, batch). Inside a batch, tiles walk down `group_m` tile rows before moving
/// one tile column. Kept here so the mapping is unit-tested (it must cover every tile once).
pub fn tile_coords(t: u64, num_m_tiles: u64, num_n_tiles: u64, group_m: u64) -> (u64, u64, u64) {
    let group_m = group_m.max(1);
    let per_batch = num_m_tiles * num_n_tiles;
    let batch = t / per_batch;
    let r = t - batch * per_batch;
    let group_size = group_m * num_n_tiles;
    let group = r / group_size;
    let first_m = group * group_m;
    let rows = (num_m_tiles - first_m).min(group_m);
    let local = r - group * group_size;
    (first_m + local % rows, local / rows, batch)
}

/// Where a tile's TMA boxes start along m (n), as kernels/sm90/gemm.cuh `inside` computes it:
/// its own first row `origin`, or for a tile past the matrix edge (`extent`) by 64 or more, moved
/// back by the overhang's whole 64s, so under 64 rows of its `block`-row box stay out of bounds
/// (their zero fill is slow, BENCHMARKS.md session 26) while it still covers its own rows. Kept
/// here so the arithmetic is unit-tested: every element written exactly once by the tiles'
/// epilogues, which skip the rows before `origin` as whole 64-row warpgroups and 64-column
/// TMA-store boxes.
pub fn box_origin(origin: u64, block: u64, extent: u64) -> u64 {
    box_origin_by(origin, block, extent, 64)
}

/// `box_origin` moving back by whole `step`s: a column-split tile's halves along n
/// (`Sm90Variant::epilogue_n`), so that each consumer's 64-column boxes are wholly the tile
/// before's or wholly its own (kernels/sm90/gemm.cuh `kStepN`).
pub fn box_origin_by(origin: u64, block: u64, extent: u64, step: u64) -> u64 {
    let over = (origin + block).saturating_sub(extent);
    let back = over / step * step;
    if back <= origin {
        origin - back
    } else {
        origin
    }
}

/// `DEEPGEMM_PINGPONG=1`: the ping-pong variants wherever one takes the problem, for tests that
/// must run each consumer schedule and for measuring one against the other; otherwise only
/// `plan::pingpong_for_narrow`'s 64x128 (they measured slower elsewhere, `PINGPONG_TILES`).
/// Read once.
pub fn pingpong_forced() -> bool {
    static F: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_PINGPONG").is_ok_and(|v| v.trim() == "1")
    });
    *F
}

/// `DEEPGEMM_CLUSTER` = `1` (no clusters), `2` (the cluster-of-2 variant wherever a tile has
/// one, for tests that must run the multicast path), `4` (the 2 x 2 one likewise), `1x2` or
/// `1x4` (the clusters along n likewise); unset: the cost model decides. As (CTAs along m,
/// along n). Read once.
pub fn cluster_forced() -> Option<(u32, u32)> {
    static F: once_cell::sync::Lazy<Option<(u32, u32)>> = once_cell::sync::Lazy::new(|| {
        parse_cluster(std::env::var("DEEPGEMM_CLUSTER").as_deref().unwrap_or(""))
    });
    *F
}

/// `DEEPGEMM_CLUSTER`'s value as (CTAs along m, along n); `None` for anything else.
pub fn parse_cluster(value: &str) -> Option<(u32, u32)> {
    match value.trim() {
        "1" => Some((1, 1)),
        "2" => Some((2, 1)),
        "4" => Some((2, 2)),
        "1x2" => Some((1, 2)),
        "1x4" => Some((1, 4)),
        _ => None,
    }
}

/// `DEEPGEMM_GROUP_M` = N (1 to 4096), the scheduler's L2 group for tuning experiments like
/// `DEEPGEMM_CLUSTER`; `None` when unset or out of range. Read once.
fn group_m_env() -> Option<u32> {
    static G: once_cell::sync::Lazy<Option<u32>> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_GROUP_M")
            .ok()
            .and_then(|s| s.trim().parse::<u32>().ok())
            .filter(|g| (1..=4096).contains(g))
    });
    *G
}

/// A batch's A at most this many bytes stays in L2 while B streams past it (a quarter of the
/// H200's 60 MiB, a third of the H100's 50).
pub const WALK_A_RESIDENT_BYTES: u64 = 16 << 20;
/// A batch's B above this many bytes does not stay in L2 from one group of tile rows to the
/// next (half the H200's L2, as `streamk::L2_REUSE_BYTES`).
pub const WALK_B_STREAMED_BYTES: u64 = 30_000_000;

/// `group_m_for` walks whole tile columns where `walk_whole_columns` says so, unless
/// `DEEPGEMM_WALK_COLUMNS=0`. On by default since session 55 (H100, `54f` and its rest,
/// deepgemm alone, one round): 24 fresh shapes the rule takes 0.962 of the default walk's time
/// (0.870-1.006; 4616x85432x384 0.886, 6712x50992x384 0.870), 12 it leaves 1.000
/// (0.995-1.010); 17000x128256x256 NN 4.64 -> 3.83 ms (cuBLASLt 3.53), TN 4.33 -> 3.71, its
/// transpose 128256x17000x256 unchanged (2.08; whole columns everywhere 3.06). Read once.
pub fn walk_columns() -> bool {
    static ON: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_WALK_COLUMNS").map_or(true, |v| v.trim() != "0")
    });
    *ON
}

/// Whether `v`'s launches on `p` should walk whole tile columns instead of `DEFAULT_GROUP_M`
/// rows at a time: a batch's A fits in L2 with room (`WALK_A_RESIDENT_BYTES`) while its B
/// does not (`WALK_B_STREAMED_BYTES`), and there are more tile rows than a group. Walking 16
/// rows then every column, B is read from DRAM once per group (17000x128256x256: 65 MB nine
/// times); walking down each column, once, with the whole of A held in L2.
pub fn walk_whole_columns(v: &Sm90Variant, p: &GemmProblem) -> bool {
    let elem = p.ab_type.size_bytes() as u64;
    let a = p.m.saturating_mul(p.k).saturating_mul(elem);
    let b = p.n.saturating_mul(p.k).saturating_mul(elem);
    let (tiles_m, _) = v.tile_blocks(p);
    a <= WALK_A_RESIDENT_BYTES && b > WALK_B_STREAMED_BYTES && tiles_m > DEFAULT_GROUP_M as u64
}

/// The scheduler's L2 group for `v`'s launches on `p`: `DEEPGEMM_GROUP_M` when set; whole tile
/// columns under `DEEPGEMM_WALK_COLUMNS=1` where `walk_whole_columns`; else DEFAULT_GROUP_M.
/// The launch (`gemm.rs`) and the cost model (`streamk`) both take it from here.
pub fn group_m_for(v: &Sm90Variant, p: &GemmProblem) -> u32 {
    if let Some(g) = group_m_env() {
        return g;
    }
    if walk_columns() && walk_whole_columns(v, p) {
        return v.tile_blocks(p).0.clamp(1, 4096) as u32;
    }
    DEFAULT_GROUP_M
}

/// Every sm90 variant that takes `p` on `dev`, widest tile first (without a cluster first).
pub fn fitting(p: &GemmProblem, dev: &DeviceSpec) -> Vec<Sm90Variant> {
    let v = with_tall(
        with_deep(
            with_solo(
                with_pingpong(fitting_with(p, dev, cluster_forced()), pingpong_forced()),
                solo_forced(),
            ),
            deep_forced(),
            deep_max_n(),
        ),
        tall_mode(),
    );
    let mut v = with_column_split(
        with_ring_clusters(v, ring_clusters_mode()),
        column_split_mode(),
    );
    if tall_mode() == TallMode::Mixed {
        v.retain(|x| !x.tall() || tall_pays(x, p));
    }
    with_only(v, variant_filter())
}

/// How the tall 192-row tiles (`TALL_TILES_N`) are planned: `DEEPGEMM_TALL` unset or `1`, among
/// the others, ranked by the cost model (the default since session 68: `68c`, H100, the 87 moves
/// among 1,600 fresh TN shapes 0.961 of the time, 75 of them onto plain tall tiles over several
/// waves 0.962, 12 onto their ring twins 0.955; `68b`'s under-a-wave set 0.964); `0`, not at
/// all; `only`, only they where one takes the problem (tests). Read once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TallMode {
    Off,
    Mixed,
    Only,
}

pub fn tall_mode() -> TallMode {
    static F: once_cell::sync::Lazy<TallMode> =
        once_cell::sync::Lazy::new(|| TallMode::from_env("DEEPGEMM_TALL"));
    *F
}

impl TallMode {
    /// A switch of candidates that are planned by default: `0` off, `only` forced, else mixed.
    fn from_env(name: &str) -> TallMode {
        Self::from_env_or(name, TallMode::Mixed)
    }

    /// A switch: `0` off, `1` mixed, `only` forced, anything else (unset) `default`.
    fn from_env_or(name: &str, default: TallMode) -> TallMode {
        match std::env::var(name).as_deref().map(str::trim) {
            Ok("0") => TallMode::Off,
            Ok("1") => TallMode::Mixed,
            Ok("only") => TallMode::Only,
            _ => default,
        }
    }

    /// This switch for a listing of every plan (`plan::every_hopper_plan`): the candidates it
    /// lets in at all, not only those it forces (`Only` lists them with the others).
    pub fn admitted(self) -> TallMode {
        if self == TallMode::Off {
            TallMode::Off
        } else {
            TallMode::Mixed
        }
    }

    /// `variants` with the `kind` this mode switches: none, all, or only they.
    fn apply(self, variants: Vec<Sm90Variant>, kind: fn(&Sm90Variant) -> bool) -> Vec<Sm90Variant> {
        match self {
            TallMode::Off => only_where_forced(variants, false, kind),
            TallMode::Mixed => variants,
            TallMode::Only => only_where_forced(variants, true, kind),
        }
    }
}

/// Where the model ranks the tall tiles (`TallMode::Mixed`): where a line of A or B starts off
/// the 32-byte sectors (k = 8 mod 16 in 16-bit TN), the case they were built for (`67a`: under
/// a wave each CTA's own L2 requests set the pace there, and a 192-row tile asks fewer a
/// multiply-add). On aligned lines they gained nothing measurable (`68c`: the 10 such moves
/// among 1,600 fresh TN shapes 0.991 of the time) and lost where the model liked them most
/// (`68g`: 3000x1000x4000 on 192x128 in the ring 44.2 us against 40.6, 5888x280x5632 on 192x72
/// in 1 x 2 48.1 against 45.0; `67d` likewise), while the 77 moves off the sectors ran 0.955.
pub fn tall_pays(v: &Sm90Variant, p: &GemmProblem) -> bool {
    let Ok((lda, ldb)) = v.leading_dims(p) else {
        return false;
    };
    let elem = v.ab.size_bytes() as u64;
    (lda.unsigned_abs() * elem) % 32 != 0 || (ldb.unsigned_abs() * elem) % 32 != 0
}

/// `variants` under `tall_mode`.
pub fn with_tall(variants: Vec<Sm90Variant>, mode: TallMode) -> Vec<Sm90Variant> {
    mode.apply(variants, Sm90Variant::tall)
}

/// How the column-split tiles (`COLUMN_SPLIT_TILES_N`) are planned: `DEEPGEMM_COLSPLIT` unset
/// or `1`, among the others, ranked by the cost model (`streamk::column_split_efficiency` and
/// its charges, fitted in session 71); `0`, not at all; `only`, only they where one takes the
/// problem. Read once.
pub fn column_split_mode() -> TallMode {
    static F: once_cell::sync::Lazy<TallMode> =
        once_cell::sync::Lazy::new(|| TallMode::from_env_or("DEEPGEMM_COLSPLIT", TallMode::Mixed));
    *F
}

/// Whether the column-split tiles with an M-major A (NN, and TT computed as NN transposed;
/// built in session 77) are planned: by default since session 78, whose first run of them
/// (H100, `78a`, `scripts/gpu-session77b.sh`) timed the shapes the switch moves at 0.904 of
/// the default plans' time over 21 NN shapes (0.69-1.08) and 0.829 over 12 TT ones
/// (0.68-0.96), every forced check and gpu_matmul group passing; `DEEPGEMM_COLSPLIT_NN=0`
/// leaves them out. Read once.
pub fn column_split_nn() -> bool {
    static F: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_COLSPLIT_NN").map_or(true, |v| v.trim() != "0")
    });
    *F
}

/// `variants` under `column_split_mode` (the M-major-A ones only with `column_split_nn`).
pub fn with_column_split(variants: Vec<Sm90Variant>, mode: TallMode) -> Vec<Sm90Variant> {
    with_column_split_nn(variants, mode, column_split_nn())
}

/// `with_column_split` with the NN switch given.
pub fn with_column_split_nn(
    mut variants: Vec<Sm90Variant>,
    mode: TallMode,
    nn: bool,
) -> Vec<Sm90Variant> {
    if !nn {
        variants.retain(|v| !(v.column_split() && v.major_a == Major::MN));
    }
    mode.apply(variants, Sm90Variant::column_split)
}

/// A ring-epilogue variant in a multicast cluster of 128-row tiles (the tall tiles' are planned
/// with them, `with_tall`).
pub fn ring_cluster(v: &Sm90Variant) -> bool {
    v.ring_epilogue && v.multicast_size() > 1 && !v.tall()
}

/// `DEEPGEMM_RING_CLUSTERS` unset or `1`: the ring epilogues of the multicast clusters among
/// the candidates (the default since session 68: `68d`, H100, the 60 moves among 1,600 fresh TN
/// shapes 0.972 of the time: 1 x 4 0.960, 1 x 2 0.967, 2 x 2 0.992, 2 x 1 0.995); `0`, none;
/// `only` for tests: only they where one takes the problem. Read once.
pub fn ring_clusters_mode() -> TallMode {
    static F: once_cell::sync::Lazy<TallMode> =
        once_cell::sync::Lazy::new(|| TallMode::from_env("DEEPGEMM_RING_CLUSTERS"));
    *F
}

/// `variants` under `ring_clusters_mode`.
pub fn with_ring_clusters(variants: Vec<Sm90Variant>, mode: TallMode) -> Vec<Sm90Variant> {
    mode.apply(variants, ring_cluster)
}

/// `DEEPGEMM_VARIANT` = comma-separated parts of variant names (`m128n256k64_s4_c1x1`): only
/// the variants whose names contain one of them, for measuring one kernel's schedules against
/// each other (`deepgemm-bench --sweep`) like `DEEPGEMM_CLUSTER`; unset: every one. Read once.
pub fn variant_filter() -> &'static [String] {
    static F: once_cell::sync::Lazy<Vec<String>> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_VARIANT")
            .map(|v| {
                v.split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect()
            })
            .unwrap_or_default()
    });
    &F
}

/// `variants` whose names contain one of `parts` (all of them when `parts` is empty).
pub fn with_only(mut variants: Vec<Sm90Variant>, parts: &[String]) -> Vec<Sm90Variant> {
    if !parts.is_empty() {
        variants.retain(|v| {
            let name = v.name();
            parts.iter().any(|part| name.contains(part.as_str()))
        });
    }
    variants
}

/// `variants` under `DEEPGEMM_DEEP` (`deep_forced`): only those with 128-deep stages where any
/// takes the problem (`forced`). Otherwise the 128-deep tiles up to `max_n` wide (`deep_max_n`,
/// not the solo ones) in place of their 64-deep twins, and no other 128-deep variant.
pub fn with_deep(mut variants: Vec<Sm90Variant>, forced: bool, max_n: u32) -> Vec<Sm90Variant> {
    if forced {
        return only_where_forced(variants, forced, Sm90Variant::deep);
    }
    let by_default = |x: &Sm90Variant| x.deep() && !x.solo() && x.block_n <= max_n;
    let twins: Vec<Sm90Variant> = variants.iter().copied().filter(by_default).collect();
    variants.retain(|x| {
        if x.deep() {
            by_default(x)
        } else {
            !x.with_deep_stages().is_some_and(|d| twins.contains(&d))
        }
    });
    variants
}

/// The widest tile planned with 128-deep stages by default (`with_deep`). H200 (session 45,
/// `45b`: every 128-deep candidate of under-wave, small-mn-long-k and random-21d TN / NT
/// against the 64-deep sweeps kept from session 40, the same candidate and decomposition,
/// across calls): 128x16 0.91-0.95 of the time, 128x32 0.96, 128x64 0.97-0.99, 128x128
/// 1.08-1.19, 128x192 / 128x256 (two stages) 1.5-1.6. The mainloop probe's gains
/// (`44i`, 128x64 0.68) did not carry into the kernel beyond the narrow tiles.
pub const DEEP_MAX_N: u32 = 32;

/// `DEEPGEMM_DEEP=1`: the variants with 128-deep stages (`Sm90Variant::with_deep_stages`)
/// wherever one takes the problem, for tests and for measuring them against the others;
/// otherwise those `deep_max_n` allows. Read once.
pub fn deep_forced() -> bool {
    static F: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_DEEP").is_ok_and(|v| v.trim() == "1")
    });
    *F
}

/// `DEEPGEMM_DEEP_MAX_N` = N (0 to 256): the widest tile planned with 128-deep stages by
/// default, for measuring the rule (0: none); else `DEEP_MAX_N`. Read once.
pub fn deep_max_n() -> u32 {
    static N: once_cell::sync::Lazy<u32> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_DEEP_MAX_N")
            .ok()
            .and_then(|s| s.trim().parse::<u32>().ok())
            .filter(|n| *n <= 256)
            .unwrap_or(DEEP_MAX_N)
    });
    *N
}

/// `variants` under `DEEPGEMM_SOLO` (`solo_forced`): only the solo ones where any takes the
/// problem (`forced`), else none of them.
pub fn with_solo(variants: Vec<Sm90Variant>, forced: bool) -> Vec<Sm90Variant> {
    only_where_forced(variants, forced, Sm90Variant::solo)
}

/// The variants of a kind planned only on request: without `forced` none of them; with it only
/// they, where any takes the problem (else the others, unchanged).
fn only_where_forced(
    mut variants: Vec<Sm90Variant>,
    forced: bool,
    kind: fn(&Sm90Variant) -> bool,
) -> Vec<Sm90Variant> {
    if !forced {
        variants.retain(|x| !kind(x));
    } else if variants.iter().any(kind) {
        variants.retain(kind);
    }
    variants
}

/// `DEEPGEMM_SOLO=1`: the solo variants (`SOLO_TILES_N`) wherever one takes the problem, for
/// tests and for measuring them against the others; otherwise none (not yet measured). Read
/// once.
pub fn solo_forced() -> bool {
    static F: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_SOLO").is_ok_and(|v| v.trim() == "1")
    });
    *F
}

/// `variants` under `DEEPGEMM_PINGPONG` (`pingpong_forced`): only the ping-pong ones where any
/// takes the problem (`forced`), else none of them: slower than the cooperative tiles where
/// measured (`PINGPONG_TILES`), they are ranked only on request (`plan::pingpong_for_narrow`
/// adds the 64x128 one after the ranking).
pub fn with_pingpong(variants: Vec<Sm90Variant>, forced: bool) -> Vec<Sm90Variant> {
    only_where_forced(variants, forced, Sm90Variant::pingpong)
}

pub fn fitting_with(
    p: &GemmProblem,
    dev: &DeviceSpec,
    cluster: Option<(u32, u32)>,
) -> Vec<Sm90Variant> {
    let mut v: Vec<Sm90Variant> = Sm90Variant::all_static()
        .iter()
        .filter(|v| v.fits(p) && v.fits_device(dev) && !row_slabs_of_8(v, p))
        .copied()
        .collect();
    // A clustered variant fits wherever its unclustered twin does (`check` ignores the
    // cluster), so the twin goes exactly where the tile is built clustered.
    if let Some((cm, cn)) = cluster {
        v.retain(|x| {
            (x.cluster_m, x.cluster_n) == (cm, cn)
                || (x.multicast_size() == 1 && x.clustered_twin(cm, cn).is_none())
        });
    }
    v.sort_by_key(|v| std::cmp::Reverse(v.block_n));
    v
}

/// Whether `v` would store a row-major 16-bit D of `p` in slabs of 8 columns (a width 8 past
/// a multiple of 16, kernels/sm90/store.cuh): built and tested, not planned. Each TMA store
/// then writes 16 bytes of 64 rows: `34b` timed the 15 TT shape-layouts the planner had moved
/// onto such widths (computed as NN transposed) at 1.13x the time of their plans before, where
/// the 30 moved onto 16-column slabs ran 0.979x.
pub fn row_slabs_of_8(v: &Sm90Variant, p: &GemmProblem) -> bool {
    v.tma_store_cols(p) == Some(8) && p.d.col == 1 && p.d.row != 1
}

/// The variant of the best Hopper plan for `p` (`plan::hopper_plans` ranks tiles and
/// decompositions with the cost model in `plan::streamk`). `None` when no sm90 variant takes
/// `p` on `dev`.
pub fn choose(p: &GemmProblem, dev: &DeviceSpec) -> Option<Sm90Variant> {
    match crate::plan::hopper(p, dev).ok()?.kernel {
        crate::plan::Kernel::Sm90(v) => Some(v),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{MatrixSpec, OpSpec, Scalar};
    use crate::types::{compute_type::*, cuda_data_type::*};

    #[test]
    fn variant_filter_keeps_only_the_named_variants() {
        let all = Sm90Variant::all();
        let parts = vec!["m128n256k64_s4_c1x1".to_string(), "m128n16k64".to_string()];
        let kept = with_only(all.clone(), &parts);
        assert!(!kept.is_empty() && kept.len() < all.len());
        for v in &all {
            let name = v.name();
            let named = name.contains("m128n256k64_s4_c1x1") || name.contains("m128n16k64");
            assert_eq!(kept.contains(v), named, "{name}");
        }
        assert_eq!(with_only(all.clone(), &[]).len(), all.len());
    }

    /// A column-major problem with the given transposes and leading dimensions.
    #[allow(clippy::too_many_arguments)]
    fn problem(
        m: u64,
        n: u64,
        k: u64,
        ta: i32,
        tb: i32,
        ab: i32,
        cd: i32,
        lds: Option<(i64, i64)>,
    ) -> GemmProblem {
        let (ar, ac) = if ta == 0 { (m, k) } else { (k, m) };
        let (br, bc) = if tb == 0 { (k, n) } else { (n, k) };
        let (lda, ldb) = lds.unwrap_or((ar as i64, br as i64));
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = ta;
        op.trans_b = tb;
        let a = MatrixSpec::col(ab, ar, ac, lda);
        let b = MatrixSpec::col(ab, br, bc, ldb);
        let c = MatrixSpec::col(cd, m, n, m as i64);
        GemmProblem::new(&op, &a, &b, &c, &c).unwrap()
    }

    fn tn(m: u64, n: u64, k: u64) -> GemmProblem {
        problem(m, n, k, 1, 0, R_16BF, R_16BF, None)
    }

    #[test]
    fn fill_tiles_store_sixteen_or_eight_columns() {
        for &(bm, bn) in &FILL_TILES {
            assert!(bn % 8 == 0 && bn % STORE_BOX != 0 && bm == 128, "{bn}");
            // Every multiple of 8 from 136 to 248 but 192 (a whole-box tile of `TILES`).
            assert!(bn % 16 == 0 || (136..=248).contains(&bn), "{bn}");
            let v = Sm90Variant::new(
                ScalarType::BF16,
                ScalarType::BF16,
                bm,
                bn,
                HOPPER_SMEM_BUDGET,
            )
            .unwrap();
            assert!(v.has_tma_store());
            assert_eq!(v.store_box_cols(), if bn % 16 == 0 { 16 } else { 8 });
            assert!(v.stages >= 4, "{}", v.name());
            // An MN-major B comes in whole 64-column chunks: no fill tile takes it.
            for major_b_mn in [(Major::K, Major::MN), (Major::MN, Major::MN)] {
                assert!(
                    Sm90Variant::with_layout(
                        ScalarType::BF16,
                        ScalarType::BF16,
                        major_b_mn,
                        bm,
                        bn,
                        HOPPER_SMEM_BUDGET
                    )
                    .is_none()
                );
            }
            // Column-major D and row-major D (stored in slabs of its lines) alike.
            assert!(v.fits(&tn(300, 500, 64)));
            let mut row = tn(300, 500, 64);
            row.d.row = 500;
            row.d.col = 1;
            row.c = row.d;
            assert!(v.fits(&row), "{}", v.name());
            let f32_out = Sm90Variant::new(
                ScalarType::BF16,
                ScalarType::F32,
                bm,
                bn,
                HOPPER_SMEM_BUDGET,
            )
            .unwrap();
            assert!(!f32_out.has_tma_store());
            let mut row32 = problem(300, 500, 64, 1, 0, R_16BF, R_32F, None);
            row32.d.row = 500;
            row32.d.col = 1;
            row32.c = row32.d;
            assert!(f32_out.fits(&row32));
        }
        // The widths of whole boxes keep 64-column stores (row-major D too).
        let v = Sm90Variant::new(
            ScalarType::BF16,
            ScalarType::BF16,
            128,
            192,
            HOPPER_SMEM_BUDGET,
        )
        .unwrap();
        assert_eq!(v.store_box_cols(), STORE_BOX);
    }

    #[test]
    fn the_bias_staging_costs_no_stage() {
        // The variants that stage a bias along n in shared memory (kernels/sm90/gemm.cuh
        // `TmaBiasCol`) could not keep one more stage without it (session 36 measured their
        // plain launches at the stages they had before), and the rest have no staging.
        let mut staged = 0;
        for v in Sm90Variant::all() {
            let bytes = v.bias_col_smem_bytes();
            assert_eq!(bytes > 0, v.tma_bias_col(), "{}", v.name());
            if bytes == 0 {
                continue;
            }
            staged += 1;
            let more = v.stages + 1;
            let without = v.smem_bytes_staging(more, 0);
            assert!(
                without > HOPPER_SMEM_BUDGET as u64,
                "{}: {more} stages would fit without the bias staging ({without} bytes)",
                v.name()
            );
        }
        assert!(staged > 0);
    }

    #[test]
    fn a_bias_along_n_on_wide_tiles_takes_the_tma_store() {
        // 14336 x 1024 x 4096 TN with a bias, swapped: the bias runs along the kernel's n.
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = 1;
        op.epilogue = crate::types::epilogue::BIAS;
        let a = MatrixSpec::col(R_16BF, 4096, 14336, 4096);
        let b = MatrixSpec::col(R_16BF, 4096, 1024, 4096);
        let d = MatrixSpec::col(R_16BF, 14336, 1024, 14336);
        let caller = GemmProblem::new(&op, &a, &b, &d, &d).unwrap();
        let p = caller.transposed();
        assert!(p.bias_along_n && p.d.col == 1, "row-major D for the kernel");
        let v = |bm, bn| {
            Sm90Variant::new(
                ScalarType::BF16,
                ScalarType::BF16,
                bm,
                bn,
                HOPPER_SMEM_BUDGET,
            )
            .unwrap()
        };
        // Up to 64 columns either epilogue adds it; wider, the TMA-store one only, on 128-row
        // tiles of widths a multiple of 16 up to 240 (248, 256, the 8-past-16 widths and
        // ping-pong spilled with it).
        assert!(v(128, 64).fits(&p) && !wide_bias_col(&v(128, 64), &p));
        for bn in [96, 224, 240] {
            assert!(v(128, bn).tma_bias_col() && wide_bias_col(&v(128, bn), &p));
            assert!(v(128, bn).fits(&p), "{bn}: {:?}", v(128, bn).check(&p));
        }
        assert!(
            !wide_bias_col(&v(128, 224), &caller),
            "the caller's bias runs along m"
        );
        for (bm, bn) in [(128, 232), (128, 248), (128, 256), (64, 256)] {
            assert!(!v(bm, bn).tma_bias_col());
            let why = v(bm, bn).check(&p).unwrap_err();
            assert!(why.contains("bias along n"), "{why}");
        }
        assert_eq!(v(128, 232).tma_store_cols(&p), None);
        assert_eq!(v(128, 232).tma_store_cols(&caller), Some(8));
        // D in a layout TMA cannot take: refused when planning. C's layout does not matter
        // (beta = 0 only).
        let mut odd = d;
        odd.ld = 14337;
        let podd = GemmProblem::new(&op, &a, &b, &odd, &odd)
            .unwrap()
            .transposed();
        assert!(
            v(128, 224)
                .check(&podd)
                .unwrap_err()
                .contains("bias along n")
        );
        let mut c_other = p; // C column-major where the kernel's D is row-major
        c_other.c = crate::problem::Strides {
            row: 1,
            col: 1040,
            batch: 0,
        };
        // C must be loadable by TMA too: a beta != 0 at the call then reads it there.
        let why = v(128, 224).check(&c_other).unwrap_err();
        assert!(
            why.contains("bias along n") && why.contains("C's layout"),
            "{why}"
        );
        // At the call: D's address for TMA, and C's unless beta = 0 on the host.
        let ptrs = |c: u64, d: u64, beta: Scalar| GemmPointers {
            alpha: Scalar::Host(1.0),
            beta,
            a: 0x1000,
            b: 0x2000,
            c,
            d,
            bias: 0x3000,
        };
        let (zero, one, dev) = (Scalar::Host(0.0), Scalar::Host(1.0), Scalar::Device(0x4000));
        let w = v(128, 224);
        assert!(wide_bias_col_accepts(
            &w,
            &p,
            &ptrs(0x10_0008, 0x20_0000, zero)
        ));
        assert!(!wide_bias_col_accepts(
            &w,
            &p,
            &ptrs(0x10_0000, 0x20_0008, zero)
        ));
        for beta in [one, dev] {
            assert!(wide_bias_col_accepts(
                &w,
                &p,
                &ptrs(0x10_0000, 0x20_0000, beta)
            ));
            assert!(!wide_bias_col_accepts(
                &w,
                &p,
                &ptrs(0x10_0008, 0x20_0000, beta)
            ));
        }
        // The Stream-K owners' epilogue is not built with it: data-parallel only.
        let dev_spec = DeviceSpec::H200;
        for (d, _) in crate::plan::streamk::decompositions(&w, &p, &dev_spec) {
            assert_eq!(d.sk_tiles, 0, "{d:?}");
        }
        // C by TMA into whole boxes and 16-column slabs, not 8-column ones.
        assert_eq!(
            store_flags(&p, &ptrs(0x10_0000, 0x20_0000, one), false, 8),
            (None, false)
        );
        assert_eq!(
            store_flags(&p, &ptrs(0x10_0000, 0x20_0000, one), false, 16),
            (Some(StoreLayout::RowMajor), true)
        );
        assert_eq!(
            store_flags(&p, &ptrs(0x10_0000, 0x20_0000, zero), false, 16),
            (Some(StoreLayout::RowMajor), false)
        );
        // A row-major D's 8-column slabs are not planned (`row_slabs_of_8`).
        let mut plain = p;
        plain.epilogue.bias = false;
        assert!(row_slabs_of_8(&v(128, 232), &plain) && !row_slabs_of_8(&v(128, 224), &plain));
        assert!(!row_slabs_of_8(&v(128, 232), &caller));
    }

    #[test]
    fn deep_stages_hold_two_slabs_and_run_narrow_by_default() {
        use ScalarType::*;
        let v = Sm90Variant::new(BF16, BF16, 128, 64, HOPPER_SMEM_BUDGET).unwrap();
        let d = v.with_deep_stages().unwrap();
        assert_eq!(d.name(), "dg_sm90_bf16_bf16_tn_m128n64k128_s4_c1x1");
        assert!(d.deep() && !v.deep());
        assert_eq!(d.stage_bytes(), 2 * v.stage_bytes());
        assert!(d.smem_bytes() <= HOPPER_SMEM_BUDGET as u64);
        // Built once, unclustered, 16-bit only; the solo tile keeps its half of the SM.
        assert!(d.with_deep_stages().is_none());
        assert!(d.with_cluster_shape(2, 1).is_none() && d.with_cluster_shape(1, 1).is_some());
        let wide = Sm90Variant::new(BF16, BF16, 128, 128, HOPPER_SMEM_BUDGET).unwrap();
        assert!(wide.with_cluster(2).unwrap().with_deep_stages().is_none());
        assert!(
            Sm90Variant::new(F32, F32, 128, 64, HOPPER_SMEM_BUDGET)
                .unwrap()
                .with_deep_stages()
                .is_none()
        );
        let solo = Sm90Variant::solo_tile(BF16, BF16, (Major::K, Major::K), 64).unwrap();
        let deep_solo = solo.with_deep_stages().unwrap();
        assert!(deep_solo.solo() && deep_solo.smem_bytes() <= SOLO_SMEM_BUDGET as u64);
        // A k of 200 is two 128-deep iterations.
        assert!(d.fits(&tn(300, 200, 200)));
        assert_eq!(tn(300, 200, 200).k.div_ceil(d.block_k as u64), 2);
        // 128x64: planned only on request (DEEPGEMM_DEEP=1), then only they where one takes
        // the problem.
        assert_eq!(with_deep(vec![v, d], false, DEEP_MAX_N), vec![v]);
        assert_eq!(with_deep(vec![v, d], true, DEEP_MAX_N), vec![d]);
        assert_eq!(with_deep(vec![v], true, DEEP_MAX_N), vec![v]);
        // By default a narrow tile's 128-deep twin replaces it (not the solo tile's); none
        // under a max of 0.
        let narrow = Sm90Variant::new(BF16, BF16, 128, 32, HOPPER_SMEM_BUDGET).unwrap();
        let deep_narrow = narrow.with_deep_stages().unwrap();
        let all = vec![v, d, narrow, deep_narrow, solo, deep_solo];
        assert_eq!(
            with_deep(all.clone(), false, DEEP_MAX_N),
            vec![v, deep_narrow, solo]
        );
        assert_eq!(with_deep(all.clone(), false, 0), vec![v, narrow, solo]);
        assert_eq!(
            with_deep(all.clone(), false, 64),
            vec![d, deep_narrow, solo]
        );
        // A narrow variant whose twin does not take the problem stays.
        assert_eq!(with_deep(vec![narrow], false, DEEP_MAX_N), vec![narrow]);
        // The k-steps the planner's thresholds count are 64 deep either way.
        assert_eq!((d.slab_steps(1000), v.slab_steps(1000)), (16, 16));
    }

    #[test]
    fn names_are_derived_and_unique() {
        let all = Sm90Variant::all();
        assert_eq!(
            all.len(),
            4 * (16 + 4 + 12 + 32 + 12 + 8 + 12 + 8 + 15 + 8)
                + 6
                + 3
                + 4
                + 3
                + 32
                + 3
                + 6
                + 6
                + 2 * 16
                + 2
                + 2 * (2 * (16 + 4) + 4 * (1 + 2))
                + 2 * 2 * 4 * 2
                + 3 * 2
                + 2 * 2 * 2 * TALL_TILES_N.len()
                + 2 * 2 * TALL_TILES_N.len()
                + 2 * 11
                + 2 * 2 * (3 + 2) * COLUMN_SPLIT_TILES_N.len()
                + 2 * 2 * 4 * 2 * WIDE_PINGPONG_TILES_N.len(),
            "2 input x 2 output types x (4 layouts x 4 tiles + 2 K-major-B layouts x 2 narrow \
             tiles + 4 layouts x 3 cluster tiles + 2 K-major-B layouts x 16 fill tiles + 4 \
             layouts x 3 ping-pong tiles + 128-deep stages (16-bit in: 4 layouts x 4 tiles + 2 \
             K-major-B layouts x 2 narrow tiles + 4 layouts x the solo tiles, 64 with 16-bit \
             out, 64 and 128 with fp32) + split-K clusters: 4 layouts x 128x64 and 2 K-major-B \
             layouts x 2 narrow tiles + 2 K-major-B layouts x 6 fill cluster tiles), tf32 TN x \
             (6 tiles + 3 cluster tiles), tf32 NN x (4 tiles + 3 cluster tiles), tf32 TN and NN \
             x 16 fill tiles, tf32 TN x 3 split-K cluster tiles and tf32 TN and NN x 6 fill \
             cluster tiles, ring \
             epilogues for bf16 and fp16 in and out: TN x 16, clusters of 2 x 2: 4 layouts x 2 \
             tiles and tf32 TN x 2; clusters along n (16-bit in): 1 x 2 and 1 x 4 of TN's 4 \
             tiles (16, 32, 64, 96), 1 x 2 of NN's, 1 x 2 and 1 x 4 of TT's 64, 1 x 2 of NT's 64; \
             solo: 2 x 2 types x 4 layouts x 2 tiles, and as many 128-deep with the whole \
             SM's ring; tf32 TN solo: 2 tiles, 64-deep, 128-deep and 128-deep with the whole \
             SM's ring; tall 192-row tiles: 2 x 2 types x TN x TALL_TILES_N, unclustered and 1 x 2, \
             and their ring epilogues (16-bit in and out) both ways; ring epilogues of TN's \
             multicast clusters where they gain a stage (16-bit in and out): 2 x 1 of 128, 144, \
             160, 192, 208, 224, 2 x 2 of 128, 1 x 2 and 1 x 4 of 64 and 96; column-split \
             192-row tiles: 2 x 2 types x COLUMN_SPLIT_TILES_N, TN unclustered, 2 x 1 and 1 x 2, NN \
             unclustered and 2 x 1; \
             wide ping-pong tiles: 2 x 2 types x 4 layouts x WIDE_PINGPONG_TILES_N, \
             unclustered and 2 x 1"
        );
        let pp = Sm90Variant::new(
            ScalarType::BF16,
            ScalarType::BF16,
            64,
            256,
            HOPPER_SMEM_BUDGET,
        )
        .unwrap();
        assert!(pp.pingpong());
        assert_eq!(pp.name(), "dg_sm90_bf16_bf16_tn_m64n256k64_s4_c1x1");
        assert!(pp.with_cluster(2).is_none());
        assert!(
            all.iter()
                .all(|v| v.pingpong() == ((v.block_m == 64 && !v.solo()) || v.wide_pingpong))
        );
        // The wide ping-pong tiles: 128 rows, 16-bit in, unclustered or 2 x 1, named apart
        // from their cooperative twins.
        let wide: Vec<&Sm90Variant> = all.iter().filter(|v| v.wide_pingpong).collect();
        assert!(wide.iter().all(|v| v.block_m == 128
            && v.ab.size_bytes() == 2
            && v.cluster_n == 1
            && v.split_k == 1
            && !v.ring_epilogue
            && !v.deep()
            && !v.tma_bias_col()
            && v.name().ends_with("_pp")));
        use ScalarType::{BF16, F32};
        let wpp = Sm90Variant::wide_pingpong_tile(BF16, BF16, (Major::K, Major::K), 128).unwrap();
        assert_eq!(wpp.name(), "dg_sm90_bf16_bf16_tn_m128n128k64_s6_c1x1_pp");
        assert_eq!(wpp.threads(), 384);
        assert!(wpp.with_cluster(2).is_some() && wpp.with_cluster_2x2().is_none());
        assert!(wpp.with_cluster_n(2).is_none() && wpp.with_split_k(2).is_none());
        assert!(Sm90Variant::wide_pingpong_tile(F32, F32, (Major::K, Major::K), 128).is_none());
        assert!(all.iter().all(|v| !v.solo() || v.block_m == 64));
        let mut names: Vec<String> = all.iter().map(|v| v.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len());
        let v = Sm90Variant::new(
            ScalarType::BF16,
            ScalarType::BF16,
            128,
            256,
            HOPPER_SMEM_BUDGET,
        )
        .unwrap();
        assert_eq!(v.name(), "dg_sm90_bf16_bf16_tn_m128n256k64_s4_c1x1");
        for n in &names {
            assert!(n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
        }
        let nt = Sm90Variant::with_layout(
            ScalarType::F16,
            ScalarType::F32,
            (Major::MN, Major::MN),
            128,
            64,
            HOPPER_SMEM_BUDGET,
        )
        .unwrap();
        assert_eq!(nt.name(), "dg_sm90_f16_f32_nt_m128n64k64_s8_c1x1");
        let tf32: Vec<String> = all
            .iter()
            .filter(|v| v.ab == ScalarType::F32)
            .map(|v| v.name())
            .collect();
        let fill = |tag: &str| -> Vec<String> {
            let stages = [7, 6, 6, 6, 5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4];
            FILL_TILES
                .iter()
                .zip(stages)
                .flat_map(|(&(_, n), s)| {
                    let name = |c| format!("dg_sm90_f32_f32_{tag}_m128n{n}k32_s{s}_c{c}x1");
                    // tf32 NN (A through registers) in clusters of 2 x 1 too (B multicast).
                    let cluster = CLUSTER_FILL_TILES_N.contains(&n);
                    std::iter::once(name(1)).chain(cluster.then(|| name(2)))
                })
                .collect()
        };
        let mut expected: Vec<String> = [
            "dg_sm90_f32_f32_tn_m128n256k32_s4_c1x1",
            "dg_sm90_f32_f32_tn_m128n256k32_s4_c2x1",
            "dg_sm90_f32_f32_tn_m128n256k32_s4_c2x2",
            "dg_sm90_f32_f32_tn_m128n192k32_s5_c1x1",
            "dg_sm90_f32_f32_tn_m128n192k32_s5_c2x1",
            "dg_sm90_f32_f32_tn_m128n128k32_s6_c1x1",
            "dg_sm90_f32_f32_tn_m128n128k32_s6_c2x1",
            "dg_sm90_f32_f32_tn_m128n128k32_s6_c2x2",
            "dg_sm90_f32_f32_tn_m128n64k32_s8_c1x1",
            "dg_sm90_f32_f32_tn_m128n64k32_s8_c1x1_ks2",
        ]
        .map(String::from)
        .to_vec();
        expected.extend(fill("tn"));
        expected.extend(
            [
                "dg_sm90_f32_f32_tn_m128n32k32_s10_c1x1",
                "dg_sm90_f32_f32_tn_m128n32k32_s10_c1x1_ks2",
                "dg_sm90_f32_f32_tn_m128n16k32_s11_c1x1",
                "dg_sm90_f32_f32_tn_m128n16k32_s11_c1x1_ks2",
                "dg_sm90_f32_f32_tn_m64n128k32_s4_c1x1_w1",
                "dg_sm90_f32_f32_tn_m64n128k64_s2_c1x1_w1",
                "dg_sm90_f32_f32_tn_m64n128k64_s4_c1x1_w1",
                "dg_sm90_f32_f32_tn_m64n64k32_s6_c1x1_w1",
                "dg_sm90_f32_f32_tn_m64n64k64_s3_c1x1_w1",
                "dg_sm90_f32_f32_tn_m64n64k64_s6_c1x1_w1",
                "dg_sm90_f32_f32_nn_m128n256k32_s4_c1x1",
                "dg_sm90_f32_f32_nn_m128n256k32_s4_c2x1",
                "dg_sm90_f32_f32_nn_m128n192k32_s5_c1x1",
                "dg_sm90_f32_f32_nn_m128n192k32_s5_c2x1",
                "dg_sm90_f32_f32_nn_m128n128k32_s6_c1x1",
                "dg_sm90_f32_f32_nn_m128n128k32_s6_c2x1",
                "dg_sm90_f32_f32_nn_m128n64k32_s8_c1x1",
            ]
            .map(String::from),
        );
        expected.extend(fill("nn"));
        assert_eq!(tf32, expected);
    }

    #[test]
    fn smem_formula_and_stage_counts() {
        let v = |bn| {
            Sm90Variant::new(
                ScalarType::F16,
                ScalarType::F32,
                128,
                bn,
                HOPPER_SMEM_BUDGET,
            )
            .unwrap()
        };
        // Every variant: 17 KiB of epilogue staging + barriers (padded to 18 KiB) + 1 KiB slack.
        // 128x256: 48 KiB a stage, 4 stages (5 would need 240 KiB).
        assert_eq!(v(256).stage_bytes(), 49_152);
        assert_eq!(v(256).stages, 4);
        assert_eq!(v(256).smem_bytes(), 4 * 49_152 + 18 * 1024 + 1024);
        // 128x128: 32 KiB a stage, 6 stages (7 would need 243 KiB).
        assert_eq!(v(128).stages, 6);
        assert_eq!(v(128).smem_bytes(), 6 * 32_768 + 19 * 1024);
        // 128x64: 24 KiB a stage, 8 stages.
        assert_eq!(v(64).stages, 8);
        // Solo 64x128: 24 KiB a stage, 3 stages and one consumer's 16 KiB of staging under
        // the 113 KiB two CTAs an SM leave each; 64x64: 16 KiB, 5.
        let solo = |bn| {
            Sm90Variant::solo_tile(ScalarType::BF16, ScalarType::BF16, (Major::K, Major::K), bn)
                .unwrap()
        };
        assert_eq!((solo(128).stages, solo(64).stages), (3, 5));
        assert_eq!(solo(128).smem_bytes(), 3 * 24_576 + 17 * 1024 + 1024);
        assert_eq!((solo(128).threads(), solo(128).ctas_per_sm()), (256, 2));
        assert!(solo(128).name().ends_with("_m64n128k64_s3_c1x1_w1"));
        // 128-deep with the whole SM's ring, one CTA an SM: 64x64 6 stages (the mainloop
        // probe's), 64x128 4; built from a 64-deep solo tile only (not a 128-deep one, not a
        // cooperative one).
        let full = |bn| solo(bn).with_full_ring().unwrap();
        assert_eq!((full(64).stages, full(128).stages), (6, 4));
        assert_eq!(
            (full(64).ctas_per_sm(), full(64).launch_min_blocks()),
            (1, 2)
        );
        assert!(full(64).name().ends_with("_m64n64k128_s6_c1x1_w1"));
        assert!(full(64).with_full_ring().is_none() && v(64).with_full_ring().is_none());
        assert!(full(64).deep() && full(64).solo());
        for v in Sm90Variant::all() {
            let budget = if v.ctas_per_sm() == 2 {
                SOLO_SMEM_BUDGET
            } else {
                HOPPER_SMEM_BUDGET
            };
            assert!(v.smem_bytes() <= budget as u64, "{}", v.name());
            assert!(
                v.smem_bytes_with(v.stages + 1) > budget as u64,
                "{} leaves a stage unused",
                v.name()
            );
            let slabs = if v.deep() { 2 } else { 1 };
            assert_eq!(v.block_k * v.ab.size_bytes() as u32, slabs * SWIZZLE_BYTES);
            assert!(v.fits_device(&DeviceSpec::H200));
            assert!(!v.fits_device(&DeviceSpec::A100));
        }
        // 16-bit D: the TMA-store staging (2 consumers x 2 buffers x 64x64 x 2 bytes = 32 KiB)
        // shares its bytes with the general staging (17 KiB) and still leaves every tile its
        // stage count: 128x256 keeps 4 stages in 226 KiB.
        let b16 = |bn| {
            Sm90Variant::new(
                ScalarType::BF16,
                ScalarType::BF16,
                128,
                bn,
                HOPPER_SMEM_BUDGET,
            )
            .unwrap()
        };
        assert_eq!(TMA_STORE_SMEM_BYTES, 32 * 1024);
        assert_eq!(b16(256).epilogue_smem_bytes(), 32 * 1024);
        assert_eq!(v(256).epilogue_smem_bytes(), EPILOGUE_SMEM_BYTES);
        assert_eq!(b16(256).stages, 4);
        assert_eq!(b16(256).smem_bytes(), 4 * 49_152 + 33 * 1024 + 1024);
        assert_eq!(b16(128).stages, 6);
        assert_eq!(b16(64).stages, 8);
        // A smaller budget gives fewer stages; too small gives no variant.
        let small =
            Sm90Variant::new(ScalarType::BF16, ScalarType::BF16, 128, 256, 140_000).unwrap();
        assert_eq!(small.stages, 2);
        assert!(Sm90Variant::new(ScalarType::BF16, ScalarType::BF16, 128, 256, 130_000).is_none());
        let small_f32 =
            Sm90Variant::new(ScalarType::BF16, ScalarType::F32, 128, 256, 120_000).unwrap();
        assert_eq!(small_f32.stages, 2);
        // tf32: 32 fp32 of k are the same 128 bytes a row as 64 16-bit values, so a stage, the
        // stage count and the shared memory equal those of the 16-bit inputs with fp32 D.
        for bn in [64, 128, 256] {
            let t = Sm90Variant::new(
                ScalarType::F32,
                ScalarType::F32,
                128,
                bn,
                HOPPER_SMEM_BUDGET,
            )
            .unwrap();
            assert_eq!(t.block_k, 32);
            assert_eq!(t.stage_bytes(), v(bn).stage_bytes());
            assert_eq!(
                (t.stages, t.smem_bytes()),
                (v(bn).stages, v(bn).smem_bytes())
            );
            assert_eq!(t.epilogue_smem_bytes(), EPILOGUE_SMEM_BYTES);
        }
        // tf32 reads B K-major only (an M-major A goes through registers, not on the narrow
        // tiles) and writes fp32 only.
        for layout in &LAYOUTS[1..] {
            for bn in [32, 128] {
                let t = Sm90Variant::with_layout(
                    ScalarType::F32,
                    ScalarType::F32,
                    *layout,
                    128,
                    bn,
                    HOPPER_SMEM_BUDGET,
                );
                let reg_a = *layout == (Major::MN, Major::K) && bn == 128;
                assert_eq!(t.is_some(), reg_a, "{layout:?} {bn}");
                if let Some(t) = t {
                    // B multicast in 2 x 1; no 2 x 2 (A's share through registers is unbuilt).
                    assert!(t.with_cluster(2).is_some(), "register-A tf32 in 2 x 1");
                    assert!(
                        t.with_cluster_2x2().is_none(),
                        "register-A tf32 not in 2 x 2"
                    );
                    assert_eq!(t.smem_bytes(), v(bn).smem_bytes());
                }
            }
        }
        for cd in [ScalarType::BF16, ScalarType::F16] {
            assert!(Sm90Variant::new(ScalarType::F32, cd, 128, 128, HOPPER_SMEM_BUDGET).is_none());
        }
        assert!(Sm90Variant::new(ScalarType::BF16, ScalarType::F16, 128, 128, 232_448).is_none());
        // 64-row tiles are the ping-pong ones: 16-bit inputs, PINGPONG_TILES widths. A 64x256
        // stage is 40 KiB: 4 stages next to the 32 KiB of TMA-store staging.
        assert!(Sm90Variant::new(ScalarType::BF16, ScalarType::BF16, 64, 64, 232_448).is_none());
        assert!(Sm90Variant::new(ScalarType::F32, ScalarType::F32, 64, 128, 232_448).is_none());
        let pp = Sm90Variant::new(ScalarType::BF16, ScalarType::BF16, 64, 256, 232_448).unwrap();
        assert!(pp.pingpong() && !v(256).pingpong());
        assert_eq!((pp.stage_bytes(), pp.stages), (40 * 1024, 4));
        assert!(pp.smem_bytes_with(5) > HOPPER_SMEM_BUDGET as u64);
    }

    #[test]
    fn fits_matching_layouts_and_aligned_strides() {
        let v = Sm90Variant::new(
            ScalarType::BF16,
            ScalarType::BF16,
            128,
            128,
            HOPPER_SMEM_BUDGET,
        )
        .unwrap();
        // TN, any m/n/k: TMA zero-fills and the epilogue predicates the edges.
        assert!(v.fits(&tn(4096, 4096, 4096)));
        assert!(v.fits(&tn(127, 4095, 4096)));
        assert!(v.fits(&tn(1, 1, 8)));
        // Tiles x k-iterations must fit the scheduler's 32-bit counters: 2^20 x 2^7 tiles of
        // 8 k-iterations each is 2^30, of 16 is 2^31.
        assert!(v.fits(&tn(1 << 27, 1 << 14, 1 << 9)));
        let e = v.check(&tn(1 << 27, 1 << 14, 1 << 10)).unwrap_err();
        assert!(e.contains("32-bit counters"), "{e}");
        // ... with room for a grid past the last tile (2^31 - 2^16 tiles of one iteration: a
        // CTA's next tile index would pass 2^31 within a grid of 264).
        let last_fits = 128 * ((1 << 16) - 3); // 2^15 x (2^16 - 3) tiles, 2^31 - 2^16 one more
        assert!(v.fits(&tn(1 << 22, last_fits, 8)));
        let e = v.check(&tn(1 << 22, last_fits + 1, 8)).unwrap_err();
        assert!(e.contains("32-bit counters"), "{e}");
        // A dimension leaves room for a cluster's 512 columns past it.
        let e = v.check(&tn(128, i32::MAX as u64 - 1000, 64)).unwrap_err();
        assert!(e.contains("32-bit coordinates"), "{e}");
        // Unaligned leading dimension: k = 4097 makes lda = 4097 elements, not 16-byte aligned.
        let e = v.check(&tn(128, 128, 4097)).unwrap_err();
        assert!(e.contains("16 bytes"), "{e}");
        // A padded leading dimension restores alignment.
        assert!(v.fits(&problem(
            128,
            128,
            4097,
            1,
            0,
            R_16BF,
            R_16BF,
            Some((4104, 4104))
        )));
        // Each transpose pair is taken by exactly the variants of its layout.
        for (ta, tb, tag) in [(1, 0, "tn"), (0, 0, "nn"), (1, 1, "tt"), (0, 1, "nt")] {
            let p = problem(304, 200, 136, ta, tb, R_16BF, R_16BF, None);
            let (deep, fitting): (Vec<Sm90Variant>, Vec<Sm90Variant>) = Sm90Variant::all()
                .into_iter()
                .filter(|v| v.fits(&p))
                .partition(Sm90Variant::deep);
            // 128-deep stages (`with_deep_stages`): TILES, the narrow tiles (K-major B) and
            // the solo 64x64 (64x128's two stages do not fit with 16-bit D), and both solo
            // tiles with the whole SM's ring (`with_full_ring`).
            let deep_narrow = if tag == "tn" || tag == "nn" {
                NARROW_TILES.len()
            } else {
                0
            };
            assert_eq!(deep.len(), TILES.len() + deep_narrow + 3, "{tag}: deep");
            // The narrow and fill tiles take K-major B only (tn, nn); so do the narrow
            // split-K clusters (128x64's is built for every layout).
            // Ring epilogues (16-bit in and out, TN) where they gain a stage: 192, 128 and 64,
            // and the fill widths up to 232 but 176 (5 stages either way).
            let (narrow, split, ring) = if tag == "tn" || tag == "nn" {
                (
                    NARROW_TILES.len() + FILL_TILES.len() + CLUSTER_FILL_TILES_N.len(),
                    SPLIT_K_TILES_N.len(),
                    if tag == "tn" { 3 + 13 + 11 } else { 0 },
                )
            } else {
                (0, 1, 0)
            };
            // Clusters along n: 1 x 2 wherever the tile is built, 1 x 4 for a K-major A.
            let along_n = match tag {
                "tn" => 2 * CLUSTER_N_TILES_N.len(),
                "nn" => CLUSTER_N_TILES_N.len(),
                "tt" => 2,
                _ => 1,
            };
            assert_eq!(
                fitting.len(),
                TILES.len()
                    + narrow
                    + along_n
                    + CLUSTER_TILES_N.len()
                    + CLUSTER_2X2_TILES_N.len()
                    + PINGPONG_TILES.len()
                    + 2 * WIDE_PINGPONG_TILES_N.len()
                    + SOLO_TILES_N.len()
                    + split
                    + ring
                    + match tag {
                        "tn" => 4 * TALL_TILES_N.len() + 3 * COLUMN_SPLIT_TILES_N.len(),
                        "nn" => 2 * COLUMN_SPLIT_TILES_N.len(),
                        _ => 0,
                    },
                "{tag}: one per tile and cluster size (tall tiles: TN; column-split: TN, NN)"
            );
            assert!(fitting.iter().all(|v| v.layout_tag() == tag), "{tag}");
        }
        // MN-major operands need aligned leading dimensions too: m = 301 for A stored m x k.
        let nn = Sm90Variant::with_layout(
            ScalarType::BF16,
            ScalarType::BF16,
            (Major::MN, Major::K),
            128,
            128,
            HOPPER_SMEM_BUDGET,
        )
        .unwrap();
        assert!(nn.fits(&problem(304, 200, 136, 0, 0, R_16BF, R_16BF, None)));
        assert!(!nn.fits(&problem(301, 200, 136, 0, 0, R_16BF, R_16BF, None)));
        assert!(nn.fits(&problem(
            301,
            200,
            136,
            0,
            0,
            R_16BF,
            R_16BF,
            Some((304, 136))
        )));
        // Types must match the variant's.
        assert!(!v.fits(&problem(256, 256, 256, 1, 0, R_16F, R_16F, None)));
        assert!(!v.fits(&problem(256, 256, 256, 1, 0, R_16BF, R_32F, None)));
        let vf = Sm90Variant::new(
            ScalarType::BF16,
            ScalarType::F32,
            128,
            128,
            HOPPER_SMEM_BUDGET,
        )
        .unwrap();
        assert!(vf.fits(&problem(256, 256, 256, 1, 0, R_16BF, R_32F, None)));
        // k = 0 goes elsewhere.
        assert!(!v.fits(&problem(64, 64, 0, 1, 0, R_16BF, R_16BF, Some((8, 8)))));
    }

    /// A column-major fp32 problem with compute type `ct` and the given transposes.
    fn fp32(m: u64, n: u64, k: u64, ta: i32, tb: i32, ct: i32) -> GemmProblem {
        let (ar, ac) = if ta == 0 { (m, k) } else { (k, m) };
        let (br, bc) = if tb == 0 { (k, n) } else { (n, k) };
        let mut op = OpSpec::new(ct, R_32F);
        op.trans_a = ta;
        op.trans_b = tb;
        let a = MatrixSpec::col(R_32F, ar, ac, ar as i64);
        let b = MatrixSpec::col(R_32F, br, bc, br as i64);
        let c = MatrixSpec::col(R_32F, m, n, m as i64);
        GemmProblem::new(&op, &a, &b, &c, &c).unwrap()
    }

    #[test]
    fn tf32_variants_take_tn_and_nn_fast_tf32_only() {
        let all_tf32: Vec<Sm90Variant> = Sm90Variant::all()
            .into_iter()
            .filter(|v| v.ab == ScalarType::F32)
            .collect();
        let tf32: Vec<Sm90Variant> = all_tf32
            .iter()
            .copied()
            .filter(|v| v.layout_tag() == "tn")
            .collect();
        let nn: Vec<Sm90Variant> = all_tf32
            .iter()
            .copied()
            .filter(|v| v.layout_tag() == "nn")
            .collect();
        assert_eq!(
            tf32.len(),
            TILES.len()
                + NARROW_TILES.len()
                + CLUSTER_TILES_N.len()
                + FILL_TILES.len()
                + SPLIT_K_TILES_N.len()
                + CLUSTER_FILL_TILES_N.len()
                + CLUSTER_2X2_TILES_N.len()
                + 3 * SOLO_TILES_N.len(),
            "... and the solo tiles: 64-deep, 128-deep, 128-deep with the whole SM's ring"
        );
        assert_eq!(
            nn.len(),
            TILES.len() + FILL_TILES.len() + CLUSTER_TILES_N.len() + CLUSTER_FILL_TILES_N.len(),
            "register-A tf32: the 64-256 wide tiles, and those of 128+ in clusters of 2 x 1"
        );
        assert_eq!(all_tf32.len(), tf32.len() + nn.len());
        for v in &all_tf32 {
            // 32 fp32 a 128-byte slab; the 128-deep solo tiles two slabs a stage.
            let block_k = if v.solo() && v.deep() { 64 } else { 32 };
            assert_eq!(
                (v.cd, v.block_k),
                (ScalarType::F32, block_k),
                "{}",
                v.name()
            );
            assert_eq!(math_for(v.ab), Math::MmaTf32);
        }
        // NN fp32 with COMPUTE_32F_FAST_TF32 (PyTorch's fp32 matmul): exactly the NN variants
        // (m is A's leading dimension here: a multiple of 4 fp32 for TMA).
        for (m, n, k) in [(4096, 4096, 4096), (300, 129, 100), (4, 17, 8)] {
            let p = fp32(m, n, k, 0, 0, COMPUTE_32F_FAST_TF32);
            let fitting: Vec<Sm90Variant> = Sm90Variant::all()
                .into_iter()
                .filter(|v| v.fits(&p))
                .collect();
            assert_eq!(fitting, nn, "{m}x{n}x{k}");
        }
        // TN fp32 with COMPUTE_32F_FAST_TF32: every tile takes it, ragged m/n/k included
        // (k = 100 is 400 bytes a line, a 16-byte multiple), and nothing else does.
        for (m, n, k) in [(4096, 4096, 4096), (300, 129, 100), (1, 17, 8)] {
            let p = fp32(m, n, k, 1, 0, COMPUTE_32F_FAST_TF32);
            assert_eq!(p.math, Math::MmaTf32);
            let fitting: Vec<Sm90Variant> = Sm90Variant::all()
                .into_iter()
                .filter(|v| v.fits(&p))
                .collect();
            // k = 8 is one k-iteration: too few for a split-K cluster.
            let expected: Vec<Sm90Variant> = tf32
                .iter()
                .copied()
                .filter(|v| k.div_ceil(32) >= v.split_k as u64)
                .collect();
            assert_eq!(fitting, expected, "{m}x{n}x{k}");
        }
        // A leading dimension of 1001 fp32 breaks TMA's 16-byte rule.
        let e = tf32[0]
            .check(&fp32(64, 64, 1001, 1, 0, COMPUTE_32F_FAST_TF32))
            .unwrap_err();
        assert!(e.contains("16 bytes"), "{e}");
        // TT, NT: no tf32 wgmma reads an N-major B; the reason says so.
        for (ta, tb) in [(1, 1), (0, 1)] {
            let p = fp32(256, 256, 256, ta, tb, COMPUTE_32F_FAST_TF32);
            assert!(Sm90Variant::all().iter().all(|v| !v.fits(&p)), "{ta}{tb}");
            let e = tf32[1].check(&p).unwrap_err();
            assert!(e.contains("reads B K-major only"), "{e}");
        }
        // Exact fp32 (COMPUTE_32F: FFMA) and pedantic compute are not tf32.
        for ct in [COMPUTE_32F, COMPUTE_32F_PEDANTIC] {
            let p = fp32(256, 256, 256, 1, 0, ct);
            assert_ne!(p.math, Math::MmaTf32);
            assert!(Sm90Variant::all().iter().all(|v| !v.fits(&p)), "{ct}");
            let e = tf32[0].check(&p).unwrap_err();
            assert!(e.contains("MmaTf32"), "{e}");
        }
        // tf32 variants take no 16-bit problem, 16-bit variants no tf32 problem.
        let b16 = tn(256, 256, 256);
        assert!(tf32.iter().all(|v| !v.fits(&b16)));
        let p = fp32(256, 256, 256, 1, 0, COMPUTE_32F_FAST_TF32);
        assert!(
            Sm90Variant::all()
                .iter()
                .filter(|v| v.ab != ScalarType::F32)
                .all(|v| !v.fits(&p))
        );
        // The heuristic picks tiles for tf32 as for the other types.
        let dev = DeviceSpec::H200;
        let big = choose(&fp32(8192, 8192, 8192, 1, 0, COMPUTE_32F_FAST_TF32), &dev).unwrap();
        assert_eq!((big.ab, big.block_n), (ScalarType::F32, 256));
        let skinny = choose(&fp32(4096, 16, 4096, 1, 0, COMPUTE_32F_FAST_TF32), &dev).unwrap();
        assert_eq!(skinny.block_n, 16, "n = 16: the narrow tile");
        assert!(choose(&fp32(4096, 4096, 4096, 0, 1, COMPUTE_32F_FAST_TF32), &dev).is_none());
        let nn_big = choose(&fp32(4096, 4096, 4096, 0, 0, COMPUTE_32F_FAST_TF32), &dev).unwrap();
        assert_eq!(nn_big.layout_tag(), "nn");
    }

    #[test]
    fn batched_problems_need_aligned_batch_strides() {
        let v = Sm90Variant::new(
            ScalarType::F16,
            ScalarType::F16,
            128,
            256,
            HOPPER_SMEM_BUDGET,
        )
        .unwrap();
        let batched = |stride: i64| {
            let mut op = OpSpec::new(COMPUTE_32F, R_32F);
            op.trans_a = 1;
            let mut a = MatrixSpec::col(R_16F, 64, 256, 64);
            let mut b = MatrixSpec::col(R_16F, 64, 256, 64);
            let mut c = MatrixSpec::col(R_16F, 256, 256, 256);
            for s in [&mut a, &mut b] {
                s.batch_count = 3;
                s.batch_stride = stride;
            }
            c.batch_count = 3;
            c.batch_stride = 256 * 256;
            GemmProblem::new(&op, &a, &b, &c, &c).unwrap()
        };
        assert!(v.fits(&batched(64 * 256)));
        assert!(!v.fits(&batched(64 * 256 + 4)), "8-byte batch stride");
        assert!(!v.fits(&batched(0)), "broadcast operand");
        // 2 m-tiles x 1 n-tile x 3 batches.
        assert_eq!(v.num_tiles(&batched(64 * 256)), 6);
    }

    #[test]
    fn pointer_alignment() {
        let ok = GemmPointers {
            alpha: Scalar::Host(1.0),
            beta: Scalar::Host(0.0),
            a: 0x1000,
            b: 0x2010,
            c: 0,
            d: 0x3002,
            bias: 0,
        };
        assert!(Sm90Variant::pointers_fit(&ok));
        assert!(!Sm90Variant::pointers_fit(&GemmPointers {
            a: 0x1008,
            ..ok
        }));
        assert!(!Sm90Variant::pointers_fit(&GemmPointers {
            b: 0x2002,
            ..ok
        }));
    }

    #[test]
    fn c_tma_needs_an_aligned_c_in_the_layout_of_d() {
        use crate::types::order;
        let problem = |c: MatrixSpec, d: MatrixSpec| {
            let mut op = OpSpec::new(COMPUTE_32F, R_32F);
            op.trans_a = 1;
            let mut a = MatrixSpec::col(R_16BF, 64, 304, 64);
            let mut b = MatrixSpec::col(R_16BF, 64, 200, 64);
            a.batch_count = d.batch_count;
            b.batch_count = d.batch_count;
            a.batch_stride = 64 * 304;
            b.batch_stride = 64 * 200;
            GemmProblem::new(&op, &a, &b, &c, &d).unwrap()
        };
        let d = MatrixSpec::col(R_16BF, 304, 200, 312);
        let p = problem(d, d);
        assert_eq!(c_tma(&p, 0x2000, StoreLayout::ColMajor), Ok(()));
        assert!(
            c_tma(&p, 0x2008, StoreLayout::ColMajor).is_err(),
            "C off 16 bytes"
        );
        assert!(c_tma(&p, 0, StoreLayout::ColMajor).is_err());
        assert!(
            c_tma(&p, 0x2000, StoreLayout::RowMajor).is_err(),
            "not D's layout"
        );
        // C's own leading dimension: a multiple of 8 elements, whatever D's.
        let c_wide = MatrixSpec::col(R_16BF, 304, 200, 400);
        assert_eq!(
            c_tma(&problem(c_wide, d), 0x2000, StoreLayout::ColMajor),
            Ok(())
        );
        let c_odd = MatrixSpec::col(R_16BF, 304, 200, 305);
        let e = c_tma(&problem(c_odd, d), 0x2000, StoreLayout::ColMajor).unwrap_err();
        assert!(e.contains("leading dimension 305"), "{e}");
        let mut c_row = MatrixSpec::col(R_16BF, 304, 200, 200);
        c_row.order = order::ROW;
        assert!(c_tma(&problem(c_row, d), 0x2000, StoreLayout::ColMajor).is_err());
        let mut d_row = c_row;
        d_row.ld = 208;
        assert_eq!(
            c_tma(&problem(c_row, d_row), 0x2000, StoreLayout::RowMajor),
            Ok(())
        );
        // Batches: C's batch stride must suit TMA; 0 (one C for every batch) has no map.
        let mut cb = d;
        cb.batch_count = 2;
        cb.batch_stride = 312 * 200;
        let mut db = cb;
        assert_eq!(
            c_tma(&problem(cb, db), 0x2000, StoreLayout::ColMajor),
            Ok(())
        );
        cb.batch_stride = 312 * 200 + 4;
        assert!(c_tma(&problem(cb, db), 0x2000, StoreLayout::ColMajor).is_err());
        cb.batch_stride = 0;
        db.batch_stride = 312 * 200;
        assert!(c_tma(&problem(cb, db), 0x2000, StoreLayout::ColMajor).is_err());
    }

    #[test]
    fn tma_store_needs_16_bit_aligned_d_and_zero_beta() {
        use crate::types::order;
        let zero = Scalar::Host(0.0);
        // Column-major D with m a multiple of 8: ldd = m elements = a 16-byte multiple.
        let p = tn(4096, 4096, 4096);
        assert_eq!(tma_store(&p, 0x1000, zero), Ok(StoreLayout::ColMajor));
        assert_eq!(StoreLayout::ColMajor.dims(&p), (4096, 4096, 4096));
        // Ragged m and n are fine when the leading dimension is aligned.
        let padded = |m: u64, n: u64, ld: i64, cd: i32, row: bool| {
            let mut op = OpSpec::new(COMPUTE_32F, R_32F);
            op.trans_a = 1;
            let ab = if cd == R_32F { R_16BF } else { cd };
            let a = MatrixSpec::col(ab, 64, m, 64);
            let b = MatrixSpec::col(ab, 64, n, 64);
            let mut d = MatrixSpec::col(cd, m, n, ld);
            if row {
                d.order = order::ROW;
            }
            GemmProblem::new(&op, &a, &b, &d, &d).unwrap()
        };
        assert_eq!(
            tma_store(&padded(304, 201, 312, R_16BF, false), 0x1000, zero),
            Ok(StoreLayout::ColMajor)
        );
        let row = padded(301, 200, 208, R_16F, true);
        assert_eq!(tma_store(&row, 0x1000, zero), Ok(StoreLayout::RowMajor));
        assert_eq!(StoreLayout::RowMajor.dims(&row), (208, 200, 301));
        // A contiguous extent that ends inside a 16-byte unit: the store would write the
        // unit's padding, so the general path takes it (m = 300 column-major, n = 255 row-major).
        for q in [
            padded(300, 201, 304, R_16BF, false),
            padded(8, 255, 256, R_16BF, true),
        ] {
            let e = tma_store(&q, 0x1000, zero).unwrap_err();
            assert!(e.contains("whole 16-byte units"), "{e}");
        }
        // The general path: an ld that breaks TMA's 16-byte rule, a misaligned D, beta != 0
        // on the host, fp32 D.
        let e = tma_store(&padded(300, 201, 300, R_16BF, false), 0x1000, zero).unwrap_err();
        assert!(e.contains("16 bytes"), "{e}");
        assert!(tma_store(&padded(300, 201, 201, R_16BF, true), 0x1000, zero).is_err());
        assert!(tma_store(&p, 0x1008, zero).is_err());
        assert!(tma_store(&p, 0, zero).is_err());
        assert!(tma_store(&p, 0x1000, Scalar::Host(1.0)).is_err());
        assert!(tma_store(&p, 0x1000, Scalar::Host(-0.0)).is_ok(), "-0 == 0");
        // A device-side beta is checked by the kernel at run time.
        assert!(tma_store(&p, 0x1000, Scalar::Device(0x2000)).is_ok());
        let e = tma_store(&padded(256, 256, 256, R_32F, false), 0x1000, zero).unwrap_err();
        assert!(e.contains("16-bit"), "{e}");
    }

    #[test]
    fn tile_order_covers_every_tile_once_and_groups_rows() {
        for (mt, nt, batch, g) in [
            (1, 1, 1, 16),
            (5, 3, 2, 16),
            (33, 17, 1, 16),
            (33, 17, 2, 8),
            (16, 16, 1, 16),
            (7, 40, 3, 1),
            (100, 1, 1, 16),
            // Whole tile columns (`group_m_for` under DEEPGEMM_WALK_COLUMNS=1).
            (33, 17, 2, 33),
            (133, 5, 1, 133),
        ] {
            let total = mt * nt * batch;
            let mut seen = vec![false; total as usize];
            for t in 0..total {
                let (m, n, b) = tile_coords(t, mt, nt, g);
                assert!(
                    m < mt && n < nt && b < batch,
                    "({mt},{nt},{batch},{g}) t={t}"
                );
                let i = ((b * nt + n) * mt + m) as usize;
                assert!(!seen[i], "tile ({m},{n},{b}) visited twice");
                seen[i] = true;
            }
            assert!(seen.iter().all(|&s| s));
        }
        // Consecutive tiles walk down a group of tile rows first.
        assert_eq!(tile_coords(0, 64, 64, 16), (0, 0, 0));
        assert_eq!(tile_coords(1, 64, 64, 16), (1, 0, 0));
        assert_eq!(tile_coords(16, 64, 64, 16), (0, 1, 0));
        assert_eq!(tile_coords(16 * 64, 64, 64, 16), (16, 0, 0));
    }

    #[test]
    fn whole_column_walks_where_a_stays_in_l2_and_b_streams() {
        let v = Sm90Variant::new(
            ScalarType::BF16,
            ScalarType::BF16,
            128,
            256,
            HOPPER_SMEM_BUDGET,
        )
        .unwrap();
        let nn = |m, n, k| problem(m, n, k, 0, 0, R_16BF, R_16BF, None);
        // A 8.7 MB, B 65.7 MB, 133 tile rows: session 54's 17000x128256x256 NN.
        assert!(walk_whole_columns(&v, &nn(17000, 128256, 256)));
        assert!(walk_whole_columns(&v, &tn(17000, 128256, 256)));
        assert!(walk_whole_columns(&v, &tn(4096, 65536, 512)));
        // The other way round A streams and B stays: the 16-row groups read each once.
        assert!(!walk_whole_columns(&v, &tn(128256, 17000, 256)));
        // A past the bound (set A's largest), B within L2 (attention's 8192x8192x128), one
        // group's worth of tile rows (2048 rows), a single tile row (decode).
        assert!(!walk_whole_columns(&v, &tn(4096, 28672, 8192)));
        assert!(!walk_whole_columns(&v, &tn(8192, 8192, 128)));
        assert!(!walk_whole_columns(&v, &tn(2048, 50000, 1024)));
        assert!(!walk_whole_columns(&v, &tn(16, 128256, 4096)));
        // Where the rule holds, the group is the variant's tile rows; where not, the default
        // (DEEPGEMM_GROUP_M and DEEPGEMM_WALK_COLUMNS unset in the test run).
        if group_m_env().is_none() {
            let g = group_m_for(&v, &tn(17000, 128256, 256));
            assert_eq!(g, if walk_columns() { 133 } else { DEFAULT_GROUP_M });
            assert_eq!(group_m_for(&v, &tn(4096, 28672, 8192)), DEFAULT_GROUP_M);
        }
    }

    /// The epilogue's writes of `len` rows (columns) from `base` as the kernel makes them: whole
    /// 64-element pieces from `base`, each skipped whole where it starts before the tile's own
    /// first element `origin`; counted into `written` up to its length (the extent).
    fn store_pieces(written: &mut [u32], base: u64, len: u64, origin: u64) {
        let mut piece = base;
        while piece < base + len {
            let end = (piece + STORE_BOX as u64).min(base + len);
            if piece >= origin {
                for x in piece..end.min(written.len() as u64) {
                    written[x as usize] += 1;
                }
            }
            piece = end;
        }
    }

    #[test]
    fn moved_boxes_cover_every_row_once_in_whole_64s() {
        // Tile heights / widths (16-bit K-major tiles and the fill widths), and extents around
        // them: the epilogues' writes, as whole 64-row (64-column) pieces from the box origin
        // that skip what lies before the tile's own first row, cover [0, extent) exactly once.
        let blocks: [u64; 12] = [16, 32, 64, 96, 112, 128, 136, 168, 192, 200, 248, 256];
        for block in blocks {
            for extent in 1..=5 * block + 70 {
                let tiles = extent.div_ceil(block);
                let mut written = vec![0u32; extent as usize];
                for t in 0..tiles + 1 {
                    // One tile past the last as well: a cluster's padding tile.
                    let origin = t * block;
                    let start = box_origin(origin, block, extent);
                    assert!(
                        start <= origin && (origin - start) % 64 == 0,
                        "{block} {extent} {t}"
                    );
                    if extent >= block {
                        // The box lies inside but for under 64 rows, and (for a tile with rows
                        // of its own) still reaches the tile's last row.
                        assert!(start + block < extent + 64, "{block} {extent} {t}: {start}");
                        assert!(origin >= extent || start + block >= (origin + block).min(extent));
                    } else if origin < extent {
                        assert_eq!(start, origin, "a matrix shorter than the block stays");
                    }
                    store_pieces(&mut written, start, block, origin);
                }
                assert!(
                    written.iter().all(|&w| w == 1),
                    "{block} {extent}: {written:?}"
                );
            }
        }
        // 2944x544 on 128-wide tiles: the last column (32 rows of B) moves back 64.
        assert_eq!(box_origin(512, 128, 544), 448);
        assert_eq!(box_origin(512, 128, 608), 512);
        assert_eq!(box_origin(256, 128, 300), 192);
    }

    #[test]
    fn grid_is_persistent() {
        let v = Sm90Variant::new(
            ScalarType::BF16,
            ScalarType::BF16,
            128,
            256,
            HOPPER_SMEM_BUDGET,
        )
        .unwrap();
        let dev = DeviceSpec::H200;
        assert_eq!(v.grid(&tn(8192, 8192, 64), &dev), 132);
        assert_eq!(v.num_tiles(&tn(8192, 8192, 64)), 64 * 32);
        assert_eq!(v.grid(&tn(256, 512, 64), &dev), 4);
        assert_eq!(v.grid(&tn(1, 1, 64), &dev), 1);
    }

    /// The bf16 TN variant of a 128 x `block_n` tile, unclustered.
    fn bf16_tile(block_n: u32) -> Sm90Variant {
        Sm90Variant::new(
            ScalarType::BF16,
            ScalarType::BF16,
            128,
            block_n,
            HOPPER_SMEM_BUDGET,
        )
        .unwrap()
    }

    /// Clusters along n (1 x 2, 1 x 4): blocks of 1 x n tiles, A shared along the tile row
    /// (each CTA asks the L2 for 1/n of it), B whole; 1 x 4 within the 30 clusters of 4 that fit;
    /// planned with the others; `DEEPGEMM_CLUSTER=1x2` / `1x4` keeps only them where a tile has
    /// one.
    #[test]
    fn clusters_along_n_share_a_and_are_planned() {
        use crate::plan::streamk::{Forced, decompositions_with};
        let dev = DeviceSpec::H200;
        let narrow = bf16_tile(16);
        let q = narrow.with_cluster_n(4).unwrap();
        assert_eq!(q.name(), "dg_sm90_bf16_bf16_tn_m128n16k64_s11_c1x4");
        assert_eq!(
            (q.multicast_size(), q.cluster_size(), q.stages),
            (4, 4, narrow.stages)
        );
        assert_eq!(narrow.stage_bytes(), (128 + 16) * 64 * 2);
        assert_eq!(q.l2_stage_bytes(), (32 + 16) * 64 * 2);
        assert_eq!(
            narrow.with_cluster_shape(1, 2).unwrap().name(),
            "dg_sm90_bf16_bf16_tn_m128n16k64_s11_c1x2"
        );
        // Not built: twice, on other clusters, 128-wide tiles, tf32, 1 x 4 of an M-major A.
        assert!(q.with_cluster_n(2).is_none() && q.with_cluster(2).is_none());
        assert!(q.with_cluster_2x2().is_none());
        let wide = bf16_tile(128);
        assert!(wide.with_cluster_n(2).is_none());
        let tf32 = Sm90Variant::new(
            ScalarType::F32,
            ScalarType::F32,
            128,
            64,
            HOPPER_SMEM_BUDGET,
        )
        .unwrap();
        assert!(tf32.with_cluster_n(2).is_none());
        let nn = Sm90Variant::with_layout(
            ScalarType::BF16,
            ScalarType::BF16,
            (Major::MN, Major::K),
            128,
            64,
            HOPPER_SMEM_BUDGET,
        )
        .unwrap();
        assert!(nn.with_cluster_n(2).is_some() && nn.with_cluster_n(4).is_none());
        // 496 x 376 on 128 x 16: 4 tile rows, 24 tile columns -> 6 blocks of 4 a row.
        let p = tn(496, 376, 1360);
        assert_eq!(q.num_tiles(&p), 96);
        assert_eq!(q.grid(&p, &dev), 96);
        let dp = decompositions_with(&q, &p, &dev, Forced::DataParallel);
        assert_eq!(dp[0].0.grid, 96);
        let sk = decompositions_with(&q, &p, &dev, Forced::StreamK);
        assert_eq!(
            (sk[0].0.sk_tiles, sk[0].0.sk_ctas, sk[0].0.grid),
            (24, 30, 120)
        );
        // 385 columns: a 25th tile column, rounded up to a whole block of 4.
        assert_eq!(q.num_tiles(&tn(496, 385, 1360)), 4 * 28);
        // Planned with the others; asked for, the twin replaces its base.
        let all = fitting_with(&p, &dev, None);
        assert!(all.contains(&q) && all.contains(&narrow));
        // ... but by the model only data-parallel, 64 wide or more, on 2 tile rows or more of 4
        // tile columns or more (`streamk::cluster_n_pays`).
        let x2 = bf16_tile(64).with_cluster_n(2).unwrap();
        let auto =
            |v: &Sm90Variant, m, n| decompositions_with(v, &tn(m, n, 3496), &dev, Forced::Auto);
        let planned = auto(&x2, 1112, 840);
        assert!(planned.len() == 1 && planned[0].0.is_data_parallel());
        assert!(auto(&q, 1112, 840).is_empty(), "16 wide");
        assert!(auto(&x2, 128, 8192).is_empty(), "one tile row");
        assert!(auto(&x2, 7168, 128).is_empty(), "two tile columns");
        assert!(!decompositions_with(&x2, &tn(128, 8192, 3496), &dev, Forced::StreamK).is_empty());
        let four = fitting_with(&p, &dev, parse_cluster("1x4"));
        assert!(four.contains(&q) && !four.contains(&narrow));
        assert!(four.contains(&wide), "no twin: the base stays");
        let two = fitting_with(&p, &dev, parse_cluster(" 1x2 "));
        assert!(two.contains(&narrow.with_cluster_n(2).unwrap()) && !two.contains(&q));
        assert_eq!(parse_cluster("2"), Some((2, 1)));
        assert_eq!(parse_cluster("2x4"), None);
    }

    /// Clusters of 2 x 2: blocks of 2 x 2 tiles, the grid whole clusters and no more than the
    /// device holds (30 on the H200, not 33), one Stream-K unit per cluster, planned with the
    /// others; `DEEPGEMM_CLUSTER=4` keeps only them where a tile has one.
    #[test]
    fn clusters_of_2x2_block_tiles_within_the_resident_clusters() {
        use crate::plan::streamk::{Forced, decompositions_with};
        let dev = DeviceSpec::H200;
        assert_eq!(
            (
                dev.resident_clusters(1),
                dev.resident_clusters(2),
                dev.resident_clusters(4)
            ),
            (132, 66, 30)
        );
        let base = bf16_tile(128);
        let q = base.with_cluster_2x2().unwrap();
        assert_eq!(q.name(), "dg_sm90_bf16_bf16_tn_m128n128k64_s6_c2x2");
        assert_eq!((q.multicast_size(), q.cluster_size()), (4, 4));
        assert!(
            q.with_cluster_2x2().is_none()
                && base.with_cluster(2).unwrap().with_cluster_2x2().is_none()
        );
        let narrow = bf16_tile(64);
        assert!(narrow.with_cluster_2x2().is_none());
        // 300 x 520: 3 tile rows -> 2 pairs, 5 tile columns -> 3 pairs: 6 blocks of 4 tiles.
        let p = tn(300, 520, 4096);
        assert_eq!(q.num_tiles(&p), 24);
        assert_eq!(q.grid(&p, &dev), 24);
        let d = decompositions_with(&q, &p, &dev, Forced::StreamK);
        let (sk, _) = d[0];
        assert_eq!((sk.sk_tiles, sk.sk_ctas, sk.grid), (6, 30, 120));
        assert_eq!(sk.in_ctas(&q).sk_ctas, 120);
        // 2048 x 2048 on 128 x 256: 32 blocks; a data-parallel grid of the 30 clusters that fit.
        let wide = bf16_tile(256).with_cluster_2x2().unwrap();
        let big = tn(2048, 2048, 8192);
        assert_eq!(wide.grid(&big, &dev), 120);
        let dp = decompositions_with(&wide, &big, &dev, Forced::DataParallel);
        assert_eq!(dp[0].0.grid, 120);
        assert!(fitting_with(&p, &dev, None).contains(&q));
        let four = fitting_with(&p, &dev, Some((2, 2)));
        assert!(four.contains(&q));
        assert!(
            four.iter()
                .all(|v| v.multicast_size() == 4 || v.cluster_m == 1)
        );
    }

    #[test]
    fn clusters_pair_tile_rows_and_share_stream_k_units() {
        use crate::plan::streamk::{Decomposition, Forced, decompositions_with};
        let dev = DeviceSpec::H200;
        let base = bf16_tile(256);
        let c2 = base.with_cluster(2).unwrap();
        assert_eq!(c2.name(), "dg_sm90_bf16_bf16_tn_m128n256k64_s4_c2x1");
        assert_eq!(c2.smem_bytes(), base.smem_bytes(), "the same shared memory");
        assert!(base.with_cluster(3).is_none());
        let narrow = bf16_tile(16);
        assert!(narrow.with_cluster(2).is_none());
        // 3 tile rows become 2 pairs (4 rows' worth); grids are whole clusters.
        let p = tn(300, 512, 64);
        assert_eq!(c2.num_tiles(&p), 4 * 2);
        assert_eq!(c2.grid(&p, &dev), 8);
        let big = tn(8192, 8192, 64);
        assert_eq!(c2.grid(&big, &dev), 132);
        let odd = DeviceSpec {
            sm_count: 131,
            ..dev
        };
        assert_eq!(c2.grid(&big, &odd), 130);
        // Stream-K over clusters: its units are the 66 clusters and its tiles the 4 row pairs
        // (2 pairs x 2 columns) of 300 x 512 x 4096; the grid and the workspace count CTAs.
        let long = tn(300, 512, 4096);
        let d = decompositions_with(&c2, &long, &dev, Forced::StreamK);
        assert_eq!(d.len(), 1);
        let (sk, t) = d[0];
        assert_eq!((sk.sk_tiles, sk.sk_ctas, sk.grid), (4, 66, 132));
        assert_eq!(
            sk.workspace_bytes(&c2, 64),
            (132u64 * 2 * 8).next_multiple_of(256) + 132 * 128 * 256 * 4,
            "a slot and two flags per CTA"
        );
        // Charged as the same split counted in CTAs (each CTA 4 * 64 / 66 iterations).
        let cta_units = Decomposition {
            sk_tiles: 8,
            sk_ctas: 132,
            grid: 132,
        };
        assert_eq!(sk.in_ctas(&c2), cta_units);
        assert!(t.is_finite() && t > 0.0);
        let dp = decompositions_with(&c2, &big, &dev, Forced::DataParallel);
        assert_eq!(dp.len(), 1);
        assert!(dp[0].0.is_data_parallel() && dp[0].0.grid == 132);
        // DEEPGEMM_CLUSTER: 2 swaps in the clustered variant where a tile has one, 1 drops them.
        let all = fitting_with(&big, &dev, None);
        let two = fitting_with(&big, &dev, Some((2, 1)));
        let one = fitting_with(&big, &dev, Some((1, 1)));
        assert!(all.iter().any(|v| v.cluster_m == 2) && all.iter().any(|v| v.cluster_m == 1));
        assert!(one.iter().all(|v| v.cluster_m == 1));
        for v in &two {
            assert_eq!(
                v.cluster_m == 2,
                ((CLUSTER_TILES_N.contains(&v.block_n)
                    || CLUSTER_FILL_TILES_N.contains(&v.block_n))
                    && v.block_m == 128
                    && (!v.ring_epilogue || v.cluster_m == 2)
                    && !v.deep())
                    || v.column_split(),
                "{}",
                v.name()
            );
        }
        assert_eq!(one.len(), two.len());
    }

    #[test]
    fn split_k_clusters_pair_k_halves_and_run_data_parallel() {
        use crate::plan::streamk::{Decomposition, Forced, decompositions_with, estimate_s};
        let dev = DeviceSpec::H200;
        let new = |bm, bn| {
            Sm90Variant::new(
                ScalarType::BF16,
                ScalarType::BF16,
                bm,
                bn,
                HOPPER_SMEM_BUDGET,
            )
        };
        let base = new(128, 64).unwrap();
        let ks = base.with_split_k(2).unwrap();
        assert_eq!(
            ks.name(),
            format!("dg_sm90_bf16_bf16_tn_m128n64k64_s{}_c1x1_ks2", ks.stages)
        );
        assert_eq!(ks.cluster_size(), 2);
        assert_eq!(ks.split_landing_bytes(), 64 * 64 * 4);
        assert_eq!(base.split_landing_bytes(), 0);
        assert!(ks.smem_bytes() <= HOPPER_SMEM_BUDGET as u64);
        assert!(
            ks.stages >= 2 && ks.stages < base.stages,
            "the landing costs stages"
        );
        assert_eq!(base.with_split_k(1), Some(base));
        assert!(base.with_split_k(3).is_none() && base.with_split_k(4).is_none());
        assert!(ks.with_split_k(2).is_none());
        assert!(ks.with_cluster(2).is_none());
        assert!(
            new(128, 128).unwrap().with_split_k(2).is_none(),
            "up to 64 wide"
        );
        assert!(
            new(128, 256)
                .unwrap()
                .with_cluster(2)
                .unwrap()
                .with_split_k(2)
                .is_none()
        );
        let reg_a = Sm90Variant::with_layout(
            ScalarType::F32,
            ScalarType::F32,
            (Major::MN, Major::K),
            128,
            64,
            HOPPER_SMEM_BUDGET,
        )
        .unwrap();
        assert!(reg_a.with_split_k(2).is_none(), "register A");
        // Two CTAs per tile, whole pairs.
        assert_eq!(ks.grid(&tn(128, 4096, 4096), &dev), 128);
        assert_eq!(ks.grid(&tn(128, 64 * 100, 4096), &dev), 132);
        let odd = DeviceSpec {
            sm_count: 131,
            ..dev
        };
        assert_eq!(ks.grid(&tn(128, 64 * 100, 4096), &odd), 130);
        assert_eq!(ks.grid(&tn(1, 1, 128), &dev), 2);
        // Each CTA needs a k-iteration of its own.
        assert!(
            ks.check(&tn(128, 64, 64))
                .unwrap_err()
                .contains("k-iterations")
        );
        assert!(ks.fits(&tn(128, 64, 72)));
        // Data-parallel over clusters, planned by the model or forced, never under the other
        // forced schedules; the other variants are not planned under the forced one.
        let p = tn(128, 4096, 4096);
        let d = decompositions_with(&ks, &p, &dev, Forced::Auto);
        assert_eq!(d.len(), 1);
        assert!(d[0].0.is_data_parallel());
        assert_eq!(d[0].0.grid, 128);
        assert_eq!(decompositions_with(&ks, &p, &dev, Forced::SplitKCluster), d);
        for f in [Forced::DataParallel, Forced::StreamK, Forced::SplitK] {
            assert!(decompositions_with(&ks, &p, &dev, f).is_empty(), "{f:?}");
        }
        assert!(decompositions_with(&base, &p, &dev, Forced::SplitKCluster).is_empty());
        // 64 tiles with a long k: half the k-loop per CTA on 128 SMs beats the whole on 64
        // (H200, session 11: 21.0 us against 23.4), and so does the global split over as many.
        let dp = Decomposition::data_parallel(base.num_tiles(&p), &dev);
        assert!(d[0].1 < estimate_s(&base, &p, &dp, &dev));
        let global = decompositions_with(&base, &p, &dev, Forced::Auto);
        assert!(d[0].1 < global[0].1 && !global[0].0.is_data_parallel());
        // 33 tiles: the pairs' 66 CTAs lose to a global split over more (24.6 us against 21.3
        // over 132).
        let few = tn(128, 2112, 7168);
        let pairs = decompositions_with(&ks, &few, &dev, Forced::Auto)[0].1;
        let global = decompositions_with(&base, &few, &dev, Forced::Auto);
        assert!(global[0].0.sk_ctas > 2 * 33 && pairs > global[0].1);
        // With a wave of tiles or more, halving the tiles in flight gains nothing.
        let full = tn(128 * 8, 64 * 33, 4096);
        let d = decompositions_with(&ks, &full, &dev, Forced::Auto);
        let dp = Decomposition::data_parallel(base.num_tiles(&full), &dev);
        let e = estimate_s(&base, &full, &dp, &dev);
        assert!(d[0].1 > e, "{} {e}", d[0].1);
    }

    /// The tall 192-row tiles: 16-bit TN only, three consumers (512 threads, two more C
    /// barriers), no cluster but 1 x 2, no split-K or 128-deep twin, ring epilogues (16-bit D)
    /// both ways with a stage or more, data-parallel only (the ring ones one tile a CTA), and
    /// planned only under `DEEPGEMM_TALL` (`with_tall`).
    #[test]
    fn tall_tiles_run_data_parallel_and_only_on_request() {
        use crate::plan::streamk::{Forced, decompositions_with};
        use ScalarType::*;
        let dev = DeviceSpec::H200;
        let tall: Vec<Sm90Variant> = Sm90Variant::all()
            .into_iter()
            .filter(|v| v.tall())
            .collect();
        assert_eq!(
            tall.len(),
            2 * 4 * TALL_TILES_N.len() + 2 * 2 * TALL_TILES_N.len()
        );
        for v in &tall {
            assert_eq!(
                (v.block_m, v.consumers, v.threads()),
                (TALL_BLOCK_M, 3, 512)
            );
            assert_eq!((v.major_a, v.major_b), (Major::K, Major::K));
            assert!(v.ab.size_bytes() == 2 && v.stages >= 4, "{}", v.name());
            assert!(v.smem_bytes() <= HOPPER_SMEM_BUDGET as u64);
            assert_eq!(v.c_tma_barriers(), 6);
            assert!(v.name().contains(&format!("_m192n{}k64_", v.block_n)));
            assert!(v.with_cluster(2).is_none() && v.with_cluster_n(4).is_none());
            assert!(v.cluster_n == 2 || v.ring_epilogue || v.with_cluster_n(2).is_some());
            assert!(v.with_split_k(2).is_none() && v.with_deep_stages().is_none());
            let ring = v.with_ring_epilogue(HOPPER_SMEM_BUDGET);
            if v.ring_epilogue || v.cd != v.ab {
                assert!(ring.is_none(), "{}", v.name());
            } else {
                let r = ring.unwrap();
                assert!(
                    r.stages > v.stages && r.cluster_n == v.cluster_n,
                    "{}",
                    r.name()
                );
                assert!(r.smem_bytes() <= HOPPER_SMEM_BUDGET as u64);
            }
            assert!(!v.tma_bias_col());
        }
        assert!(Sm90Variant::tall_tile(BF16, BF16, (Major::MN, Major::K), 72).is_none());
        assert!(Sm90Variant::tall_tile(F32, F32, (Major::K, Major::K), 72).is_none());
        assert!(Sm90Variant::tall_tile(BF16, BF16, (Major::K, Major::K), 144).is_none());
        let two = Sm90Variant::new(BF16, BF16, 128, 128, HOPPER_SMEM_BUDGET).unwrap();
        assert_eq!(two.c_tma_barriers(), C_TMA_BARRIERS);
        let p = tn(5888, 280, 5640);
        let v = Sm90Variant::tall_tile(BF16, BF16, (Major::K, Major::K), 72).unwrap();
        assert!(v.fits(&p));
        assert_eq!(v.num_tiles(&p), 31 * 4);
        let ds = decompositions_with(&v, &p, &dev, Forced::Auto);
        assert_eq!(ds.len(), 1);
        assert!(ds[0].0.is_data_parallel() && ds[0].0.grid == 124);
        assert!(decompositions_with(&v, &p, &dev, Forced::StreamK).is_empty());
        let c = v.with_cluster_n(2).unwrap();
        assert_eq!(c.name(), "dg_sm90_bf16_bf16_tn_m192n72k64_s5_c1x2");
        let dc = decompositions_with(&c, &p, &dev, Forced::Auto);
        assert!(dc.len() == 1 && dc[0].0.is_data_parallel() && dc[0].0.grid == 124);
        // The ring twins: 6 stages where the plain ones keep 5, one tile a CTA or nothing.
        let cr = c.with_ring_epilogue(HOPPER_SMEM_BUDGET).unwrap();
        assert_eq!(cr.name(), "dg_sm90_bf16_bf16_tn_m192n72k64_s6_c1x2_re");
        let dr = decompositions_with(&cr, &p, &dev, Forced::Auto);
        assert!(dr.len() == 1 && dr[0].0.is_data_parallel() && dr[0].0.grid == 124);
        assert!(decompositions_with(&cr, &tn(5888 * 2, 280, 5640), &dev, Forced::Auto).is_empty());
        // Ranked by the model only where lines start off the 32-byte sectors (`tall_pays`).
        assert!(tall_pays(&v, &p) && !tall_pays(&v, &tn(5888, 280, 5632)));
        if std::env::var_os("DEEPGEMM_TALL").is_none() {
            assert!(fitting(&p, &dev).iter().any(Sm90Variant::tall));
            assert!(
                !fitting(&tn(5888, 280, 5632), &dev)
                    .iter()
                    .any(Sm90Variant::tall)
            );
        }
        // 3 tile columns make 2 clusters a row: 4 CTAs, one of them on a tile past the edge.
        assert_eq!(cr.num_tiles(&tn(192, 200, 5640)), 4);
        let both = vec![two, v];
        assert_eq!(with_tall(both.clone(), TallMode::Off), vec![two]);
        assert_eq!(with_tall(both.clone(), TallMode::Mixed), both);
        assert_eq!(with_tall(both.clone(), TallMode::Only), vec![v]);
        assert_eq!(with_tall(vec![two], TallMode::Only), vec![two]);
    }

    /// The column-split 192-row tiles: 16-bit TN (unclustered, 2 x 1 and 1 x 2) and NN
    /// (unclustered and 2 x 1), two consumers (384 threads) of half the columns each,
    /// data-parallel only, stores in the consumer's half-width boxes, and switched by
    /// `DEEPGEMM_COLSPLIT` (NN also by `DEEPGEMM_COLSPLIT_NN`).
    #[test]
    fn column_split_tiles_run_data_parallel_under_their_switch() {
        use crate::plan::streamk::{Forced, decompositions_with};
        use ScalarType::*;
        let dev = DeviceSpec::H200;
        let cs: Vec<Sm90Variant> = Sm90Variant::all()
            .into_iter()
            .filter(|v| v.column_split())
            .collect();
        // Four type pairs; TN unclustered, 2 x 1 and 1 x 2, NN (an M-major A) without 1 x 2.
        assert_eq!(cs.len(), 4 * (3 + 2) * COLUMN_SPLIT_TILES_N.len());
        for v in &cs {
            assert_eq!((v.block_m, v.consumers, v.threads()), (192, 2, 384));
            assert!(!v.tall() && !v.pingpong() && !v.solo());
            assert_eq!(v.major_b, Major::K);
            assert!(v.major_a == Major::K || v.cluster_n == 1, "{}", v.name());
            assert!(v.ab.size_bytes() == 2 && v.stages >= 4, "{}", v.name());
            assert!(v.smem_bytes() <= HOPPER_SMEM_BUDGET as u64);
            assert_eq!(v.epilogue_n(), v.block_n / 2);
            assert!(v.name().ends_with("_cs"), "{}", v.name());
            assert!(matches!(
                (v.cluster_m, v.cluster_n),
                (1, 1) | (2, 1) | (1, 2)
            ));
            assert!(v.with_split_k(2).is_none() && v.with_deep_stages().is_none());
            assert!(v.with_ring_epilogue(HOPPER_SMEM_BUDGET).is_none());
            assert!(v.with_cluster_2x2().is_none());
            assert!(!v.tma_bias_col());
        }
        let v = Sm90Variant::column_split_tile(BF16, BF16, (Major::K, Major::K), 192).unwrap();
        // 96 columns a consumer: a whole box and one of 32 (column-major D's tail map).
        assert_eq!((v.store_box_cols(), v.epilogue_n() % STORE_BOX), (16, 32));
        assert_eq!(v.stages, 4, "cuBLASLt's 192x192_64x4");
        assert!(Sm90Variant::column_split_tile(BF16, BF16, (Major::K, Major::MN), 192).is_none());
        assert!(Sm90Variant::column_split_tile(BF16, BF16, (Major::MN, Major::MN), 192).is_none());
        assert!(Sm90Variant::column_split_tile(F32, F32, (Major::K, Major::K), 192).is_none());
        assert!(Sm90Variant::column_split_tile(BF16, BF16, (Major::K, Major::K), 128).is_none());
        // 6240x752: 33 x 4 = 132 tiles, one wave, data-parallel only.
        let p = tn(6240, 752, 4600);
        assert!(v.fits(&p));
        assert_eq!(v.num_tiles(&p), 33 * 4);
        let ds = decompositions_with(&v, &p, &dev, Forced::Auto);
        assert_eq!(ds.len(), 1);
        assert!(ds[0].0.is_data_parallel() && ds[0].0.grid == 132);
        assert!(decompositions_with(&v, &p, &dev, Forced::StreamK).is_empty());
        // A bias along n wider than the general epilogue adds: refused.
        let mut biased = tn(6240, 752, 4600);
        biased.epilogue.bias = true;
        biased.bias_along_n = true;
        assert!(!v.fits(&biased));
        let two = Sm90Variant::new(BF16, BF16, 128, 128, HOPPER_SMEM_BUDGET).unwrap();
        let both = vec![two, v];
        assert_eq!(with_column_split(both.clone(), TallMode::Off), vec![two]);
        assert_eq!(with_column_split(both.clone(), TallMode::Mixed), both);
        assert_eq!(with_column_split(both.clone(), TallMode::Only), vec![v]);
        // NN: built, fits an NN problem, not in 1 x 2; planned only under its switch.
        let nn = Sm90Variant::column_split_tile(BF16, BF16, (Major::MN, Major::K), 192).unwrap();
        assert!(nn.name().contains("_nn_m192n192k64") && nn.name().ends_with("_cs"));
        assert_eq!(nn.stages, 4);
        let p_nn = problem(6240, 752, 4600, 0, 0, R_16BF, R_16BF, None);
        assert!(nn.fits(&p_nn) && !nn.fits(&p) && !v.fits(&p_nn));
        assert!(nn.with_cluster(2).is_some() && nn.with_cluster_n(2).is_none());
        assert!(v.with_cluster_n(2).is_some());
        let mixed = vec![two, v, nn];
        assert_eq!(
            with_column_split_nn(mixed.clone(), TallMode::Mixed, false),
            vec![two, v]
        );
        assert_eq!(
            with_column_split_nn(mixed.clone(), TallMode::Mixed, true),
            mixed
        );
        assert_eq!(
            with_column_split_nn(mixed.clone(), TallMode::Only, true),
            vec![v, nn]
        );
        assert_eq!(
            with_column_split_nn(mixed.clone(), TallMode::Off, true),
            vec![two]
        );
    }

    #[test]
    fn column_split_boxes_cover_every_column_once() {
        // A column-split tile moves back by whole halves (`box_origin_by`); each consumer stores
        // its half in 64-column boxes from its own base, skipping the boxes that start before
        // the tile's first column (kernels/sm90/store.cuh): every column written once.
        for block in COLUMN_SPLIT_TILES_N.map(u64::from) {
            let half = block / 2;
            for extent in 1..=4 * block + 70 {
                let tiles = extent.div_ceil(block);
                let mut written = vec![0u32; extent as usize];
                for t in 0..tiles + 1 {
                    let origin = t * block;
                    let start = box_origin_by(origin, block, extent, half);
                    assert!(start <= origin && (origin - start) % half == 0);
                    if extent >= block && origin < extent {
                        assert!(start + block >= (origin + block).min(extent));
                        assert!(start + block < extent + half, "{block} {extent} {t}");
                    }
                    for c in 0..2 {
                        store_pieces(&mut written, start + c * half, half, origin);
                    }
                }
                assert!(
                    written.iter().all(|&w| w == 1),
                    "{block} {extent}: {written:?}"
                );
            }
        }
        // A 64-step would strand columns: 192 wide at n = 200, the last tile moved back 128,
        // its second consumer's first box starts 32 before the tile.
        assert_eq!(box_origin(192, 192, 200), 64);
        assert_eq!(box_origin_by(192, 192, 200, 96), 96);
    }

    #[test]
    fn pingpong_runs_only_on_request_and_data_parallel() {
        use crate::plan::streamk::{Forced, decompositions_with};
        let dev = DeviceSpec::H200;
        let p = tn(4096, 4096, 4096);
        let all = fitting_with(&p, &dev, None);
        assert!(all.iter().any(|v| v.pingpong()) && all.iter().any(|v| !v.pingpong()));
        let v = with_pingpong(all.clone(), false);
        assert!(!v.is_empty() && v.iter().all(|v| !v.pingpong()));
        let forced = with_pingpong(all.clone(), true);
        // The 64-row ones, and the wide ones unclustered and in 2 x 1.
        assert_eq!(
            forced.len(),
            PINGPONG_TILES.len() + 2 * WIDE_PINGPONG_TILES_N.len()
        );
        assert!(
            forced
                .iter()
                .all(|v| v.pingpong() && (v.cluster_m == 1 || v.wide_pingpong))
        );
        // tf32 has no ping-pong variant: forcing it leaves the problem its variants.
        let f32p = problem(512, 512, 512, 1, 0, R_32F, R_32F, None);
        let tf32 = fitting_with(&f32p, &dev, None);
        assert_eq!(with_pingpong(tf32.clone(), true), tf32);
        // Data-parallel only, whatever the schedule forced.
        let pp = forced[0];
        let d = decompositions_with(&pp, &tn(1664, 1664, 8192), &dev, Forced::Auto);
        assert_eq!(d.len(), 1);
        assert!(d[0].0.is_data_parallel());
        assert!(decompositions_with(&pp, &p, &dev, Forced::StreamK).is_empty());
        assert!(decompositions_with(&pp, &p, &dev, Forced::SplitK).is_empty());
        // 64-row tiles: twice the tile rows of the cooperative 128-row tiles.
        assert_eq!(pp.num_tiles(&p), 64 * (4096 / pp.block_n as u64));
    }

    #[test]
    fn choose_picks_a_fitting_variant() {
        let dev = DeviceSpec::H200;
        let big = choose(&tn(8192, 8192, 8192), &dev).unwrap();
        assert_eq!((big.block_m, big.block_n), (128, 256));
        let mid = choose(&tn(1024, 1024, 4096), &dev).unwrap();
        assert!(mid.fits(&tn(1024, 1024, 4096)));
        let skinny = choose(&tn(4096, 16, 4096), &dev).unwrap();
        assert_eq!(skinny.block_n, 16, "n = 16: the narrow tile");
        for p in [
            tn(8192, 8192, 8192),
            tn(1024, 1024, 4096),
            tn(4096, 16, 4096),
        ] {
            assert!(choose(&p, &dev).unwrap().fits(&p));
        }
        assert!(choose(&tn(4096, 4096, 4096), &DeviceSpec::A100).is_none());
        let nn = problem(4096, 4096, 4096, 0, 0, R_16BF, R_16BF, None);
        assert_eq!(choose(&nn, &dev).unwrap().layout_tag(), "nn");
        assert!(
            choose(&tn(4096, 4096, 4097), &dev).is_none(),
            "unaligned lda"
        );
    }
}
