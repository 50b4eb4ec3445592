//! Packing A and B into the caller's workspace so that the Hopper kernel can take operands
//! whose leading dimension, batch stride or base address breaks TMA's 16-byte rules.
//!
//! A packed operand keeps its storage order (K-major stays K-major, MN-major stays MN-major);
//! only the distance between its lines and between its batches changes: each line of the
//! contiguous dimension is copied into a line of `PACK_LINE_ALIGN` bytes' multiple, batches
//! follow each other densely, and each buffer starts 256-byte aligned in the workspace. The
//! pack kernel (kernels/pack/pack.cuh, `PackVariant`) makes the copies on the caller's stream
//! before the GEMM; the sm90 planner and launcher then see an ordinary problem
//! (`packed_problem`) whose A and B live in the workspace (`packed_pointers`).
//!
//! One exception: an N-major B under tf32 math is copied transposed, K-major
//! (`PackedOperand::transposed`, the pack kernel's transposing form): PTX's tf32 wgmma reads B
//! K-major only, so tf32 NT (both operands MN-major, PyTorch's weight gradient in cuBLAS's
//! terms) had no Hopper plan either way round and ran the portable kernel.
//!
//! Pure Rust over plain data, like the rest of `plan`.

use crate::plan::sm90::{self, Major, TMA_STRIDE_ALIGN};
use crate::plan::{DeviceSpec, Plan};
use crate::problem::{GemmPointers, GemmProblem, Strides};

/// Packed lines are padded to a multiple of 128 bytes, not just TMA's 16. The sm90 kernel's
/// TMA boxes are 128 bytes wide along the contiguous dimension (one 128-byte swizzle row:
/// `sm90::SWIZZLE_BYTES`), and every box starts at a multiple of 128 bytes within its line.
/// With 128-byte lines each box row is exactly one 128-byte L2 line (four 32-byte sectors);
/// with 16-byte lines most rows straddle two L2 lines (five sectors, 25% more L2 traffic for
/// the same data). The pack kernel's stores also stay whole sectors. The cost is at most 63
/// padding elements per line (1.5% at k = 4097). Reasoned from the sector arithmetic, not
/// measured; the constant is the one place to change for an A/B comparison on the H200.
pub const PACK_LINE_ALIGN: u64 = 128;

/// Every packed buffer starts at a multiple of this many bytes from the workspace's start
/// (cuBLASLt's workspace is itself 256-byte aligned, `api::matmul::WORKSPACE_ALIGNMENT`).
pub const PACK_BASE_ALIGN: u64 = 256;

/// The cost model behind `pays`. Packing costs one extra kernel per packed operand that reads
/// the operand and writes its padded copy; it pays when that is less than what the Hopper
/// kernel saves over the portable kernel, which takes every layout without packing:
///
/// ```text
/// bytes / PACK_BYTES_PER_S + PACK_LAUNCH_S + PACK_OVERLAPPED_LAUNCH_S * (launches - 1)
///     + max(flops / HOPPER_FLOPS, HOPPER_MIN_S) + SHORT_D_S where it applies (`short_d_s`)
///     <  max(flops / PORTABLE_FLOPS, waves of PORTABLE_RESIDENT_TILES * k * PORTABLE_K_S)
///        + PORTABLE_FIXED_S
/// ```
///
/// Bytes read plus written per second by the pack kernel (the H200's HBM3e peaks at 4.8 TB/s;
/// a plain copy reaches about half of it).
pub const PACK_BYTES_PER_S: f64 = 2.5e12;
/// Bytes read plus written per second by the transposing copy (through shared memory, 64 x 64
/// elements a tile). Measured 2.50 TB/s on an H100 at 4096 x 4096 fp32 (session 56, 75% of
/// its peak; the plain copy's 2.37-2.41 there). Left at the estimate it was planned and timed
/// with: the plain copy's 2.5 here moves 127x4095x4096 NT from its transposed plan (timed,
/// 0.56x cuBLASLt) to a direct Stream-K one (not timed); the other six timed shapes keep
/// their plans either way.
pub const TRANSPOSE_BYTES_PER_S: f64 = 2.0e12;
/// The portable mma.sync kernel on large bf16/fp16 problems on the H200 (~70 TFLOP/s at 4097³,
/// BENCHMARKS.md), rounded down because smaller problems run slower.
pub const PORTABLE_FLOPS: f64 = 60e12;
/// The Hopper kernel on large problems (~750 TFLOP/s at 4096³), likewise rounded down.
pub const HOPPER_FLOPS: f64 = 600e12;
/// Fixed cost of one more kernel on the stream (launch gap and the pack kernel's ramp and
/// tail), an estimate: it keeps the smallest problems on the one-kernel portable path.
pub const PACK_LAUNCH_S: f64 = 3e-6;
/// The same for each copy after a call's first, which runs alongside it (`gemm::pack_overlap`,
/// the default since session 64): `64a` measured 16 packed shapes with both operands copied
/// ~2 us faster so (255x151x182 13.3 -> 11.4 us, 317x190x301 14.4 -> 12.5, 318x207x1311 18.4
/// -> 15.7; H100). Charged whatever `DEEPGEMM_PACK_OVERLAP` says.
pub const PACK_OVERLAPPED_LAUNCH_S: f64 = 1e-6;
/// The portable kernel walks k at ~1.2 us a 32-deep k-step of its 64 x 64 tiles (no pipeline:
/// each step waits on its loads), whatever the problem's size: 512³ 27.6 us (session 33,
/// `33e`), 1024³ 47.8, 16x4096x4096 149, 127x4095x4096 153, 128x14336x4096 332 (two waves;
/// session 1). Charged per k and wave of resident tiles; flops alone put 512³ at 4.5 us.
pub const PORTABLE_K_S: f64 = 40e-9;
/// 64 x 64 tiles of the portable kernel the H200 runs at once (132 SMs x 3 CTAs).
pub const PORTABLE_RESIDENT_TILES: u64 = 396;
/// The portable kernel's fixed cost past its k walk (its ramp and epilogue): with the bench's
/// ~3 us of launch on both sides, 64³ 11.1 us, 128³ 13.3, 192³ 16.3, 256³ 17.7 (`33h`).
pub const PORTABLE_FIXED_S: f64 = 6e-6;
/// The Hopper kernel's floor on a small problem (a launch's prologue, first loads and
/// epilogue), what it adds past the copies ahead of it: 5 us until session 65, then 3. `65a`
/// (H100, every candidate timed, TN, both operands packed against the portable kernel): 300x300x51
/// 10.2 against 11.4 us, 48x48x47 9.0 against 10.3, 200x64x45 9.4 against 11.1, where the model
/// had charged the packed plans 1.0-1.2 us more than the portable one (with 3 us: 0.8-1.0 us
/// less; the portable estimates sit 2.3-3.4 us under their times, the bench's launch and flush,
/// so it is the packed side that was overcharged since the copies overlap and launch under
/// PDL). With it, square bf16 problems that need both operands packed break even at n ~ 25,
/// 64 where `SHORT_D_S` applies (measured: packed 0.78-0.89 of the portable time down to
/// 48x48x47 in `65a` (H100), but 1.03-1.20 on the tiniest outputs in `65b` (H200); a tie at 64³
/// in `33g`, before PDL and overlapped copies; the model put it at n = 620 before session 33,
/// when 512³ ran portable at 0.52x cuBLASLt).
pub const HOPPER_MIN_S: f64 = 3e-6;
/// What the Hopper side costs more (`short_d_s`) where D has fewer than `SHORT_D_ROWS` rows (m),
/// is small (under `SHORT_D_ELEMENTS` over its batches: 16 portable tiles) and either cannot
/// take the TMA-store epilogue (its layout: `sm90::tma_store`) or has fewer than
/// `SHORT_D_STORED_ROWS`. The Hopper kernel has no tile under 64 rows along m (its narrow tiles
/// are narrow along n), so such a D runs 128-row tiles mostly empty, through the staged
/// epilogue where it cannot be TMA-stored (the 128 x 128 tile in every such plan measured).
/// The plans' own estimates do not tell these apart (5.0-5.1 us for every candidate), hence a
/// charge here. Measured on small odd shapes against 5b0b05a (BENCHMARKS.md session 65), in
/// order: `65b` / `65c` (H200, HOPPER_MIN_S = 3 us alone): 84 and 152 moves off the portable
/// kernel 0.905-0.948 of the time by layout, but every move with m of 10-63 (D's ld = m off
/// the 16-byte grid) 0.99-1.22 (61x310x29 NT 12.7 us against 10.4), while m >= 64 with a small
/// n gained (132x42x66 0.75-0.82, 64x64x63 0.825); the bound on D's size keeps the decode moves
/// packed (4x22639x328 NT 0.86). `65d` (H100, out of sample, m >= 64): 160 moves 0.911-0.942.
/// `65e` (H100, every candidate, TN): m of 10-63 with D off the grid, the portable kernel
/// 9.7-11.3 us against the best packed plan's 11.1-11.6, but m = 48 and 64 with D aligned
/// packed 9.0 and 9.2 against 10.5 and 10.8: hence the condition on D's layout. `65f` (H100, m
/// < 64 a multiple of 8): m = 8 1.13 by geomean (8x87x11 NT 7.7 -> 10.3 us), m = 16 1.03, m = 24
/// 0.928, 32-56 0.86-0.91: hence `SHORT_D_STORED_ROWS`. `65g` (H100, out of sample, m of 24-56
/// with D aligned): 75 moves 0.825-0.946; `65i` (tf32): 46 moves 0.815-0.867.
pub const SHORT_D_S: f64 = 2e-6;
/// See `SHORT_D_S`.
pub const SHORT_D_STORED_ROWS: u64 = 24;
/// See `SHORT_D_S`.
pub const SHORT_D_ROWS: u64 = 64;
/// See `SHORT_D_S`.
pub const SHORT_D_ELEMENTS: u64 = 16 * 64 * 64;

/// Which of A, B and D (to pack, or that break a rule). D is "packed" the other way: the
/// kernel writes an aligned copy in the workspace (TMA stores), which is then copied into the
/// caller's D (after C, when it is read, was copied in).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Which {
    pub a: bool,
    pub b: bool,
    pub d: bool,
}

impl Which {
    pub const NONE: Which = Which {
        a: false,
        b: false,
        d: false,
    };
    pub const BOTH: Which = Which {
        a: true,
        b: true,
        d: false,
    };

    pub fn any(self) -> bool {
        self.a || self.b || self.d
    }

    pub fn or(self, o: Which) -> Which {
        Which {
            a: self.a || o.a,
            b: self.b || o.b,
            d: self.d || o.d,
        }
    }

    /// The same operands in the transposed problem (A and B trade places).
    pub fn swapped(self) -> Which {
        Which {
            a: self.b,
            b: self.a,
            d: self.d,
        }
    }
}

/// A or B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    A,
    B,
}

impl Operand {
    fn name(self) -> &'static str {
        match self {
            Operand::A => "A",
            Operand::B => "B",
        }
    }
}

/// One operand's packed copy: where it comes from, its layout and its place in the workspace.
/// Lengths and strides are in elements; `offset` and `bytes` in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PackedOperand {
    /// The copy's contiguous dimension: the caller's, or the other one when `transposed`.
    pub major: Major,
    /// Copied transposed: the caller's lines run along the copy's `outer` dimension (a tf32
    /// N-major B copied K-major, `needs_transpose`). Its source is `inner` lines of `outer`
    /// elements, `src_ld` apart.
    pub transposed: bool,
    /// Elements along the copy's contiguous dimension: k when K-major, m (A) or n (B) when
    /// MN-major.
    pub inner: u64,
    /// Lines per batch of the copy: the other dimension.
    pub outer: u64,
    pub batch: u64,
    /// The caller's stride between its lines and between batches (the latter may be 0).
    pub src_ld: i64,
    pub src_batch_stride: i64,
    /// The copy's leading dimension: `inner` rounded up to `PACK_LINE_ALIGN` bytes.
    pub ld: i64,
    /// The copy's batch stride: `outer * ld` (dense).
    pub batch_stride: i64,
    /// Element size (2 for bf16/fp16; 4 for fp32/tf32).
    pub elem_bytes: u32,
    /// Byte offset of the copy in the workspace (a multiple of `PACK_BASE_ALIGN`).
    pub offset: u64,
    /// Bytes of the copy: `outer * ld * batch * elem_bytes`.
    pub bytes: u64,
}

impl PackedOperand {
    /// Bytes the pack kernel reads (the data, not the caller's padding).
    pub fn bytes_read(&self) -> u64 {
        // Saturating: only estimates read it, and absurd extents must not overflow (a debug
        // build's panic would reach the C boundary as INTERNAL_ERROR).
        self.inner
            .saturating_mul(self.outer)
            .saturating_mul(self.batch)
            .saturating_mul(self.elem_bytes as u64)
    }

    /// Element strides of the logical operand (op(A) m x k, op(B) k x n) in the copy.
    fn strides(&self, which: Operand) -> Strides {
        let (row, col) = match (which, self.major) {
            // A: rows are m, columns k. K-major: unit stride along k.
            (Operand::A, Major::K) | (Operand::B, Major::MN) => (self.ld, 1),
            (Operand::A, Major::MN) | (Operand::B, Major::K) => (1, self.ld),
        };
        Strides {
            row,
            col,
            batch: self.batch_stride,
        }
    }

    /// Largest element offset + 1 of the copy (`GemmProblem::extent`).
    fn extent(&self) -> u64 {
        (self.batch - 1) * self.batch_stride as u64 + (self.outer - 1) * self.ld as u64 + self.inner
    }
}

/// What a plan packs. At least one of `a`, `b` and `d` is set. `d` describes D's aligned copy
/// (major MN: unit stride along m, column-major; K: along n, row-major), which C shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PackSpec {
    pub a: Option<PackedOperand>,
    pub b: Option<PackedOperand>,
    pub d: Option<PackedOperand>,
}

impl PackSpec {
    /// Workspace bytes of the packed copies, rounded up to `PACK_BASE_ALIGN` so that other
    /// workspace needs of a plan can follow at this offset.
    pub fn workspace_bytes(&self) -> u64 {
        self.operands()
            .map(|(_, o)| o)
            .chain(self.d)
            .map(|o| o.offset + o.bytes)
            .max()
            .unwrap_or(0)
            .next_multiple_of(PACK_BASE_ALIGN)
    }

    /// The packed operands, A first.
    pub fn operands(&self) -> impl Iterator<Item = (Operand, PackedOperand)> {
        let a = self.a.map(|o| (Operand::A, o));
        let b = self.b.map(|o| (Operand::B, o));
        a.into_iter().chain(b)
    }

    /// "a", "b", "ab", "d", "ad", "bd" or "abd": which operands are packed (part of the
    /// plan's name).
    pub fn tag(&self) -> String {
        let mut t = String::new();
        for (on, c) in [
            (self.a.is_some(), 'a'),
            (self.b.is_some(), 'b'),
            (self.d.is_some(), 'd'),
        ] {
            if on {
                t.push(c);
            }
        }
        if t.is_empty() {
            t.push_str("none");
        }
        t
    }

    pub fn which(&self) -> Which {
        Which {
            a: self.a.is_some(),
            b: self.b.is_some(),
            d: self.d.is_some(),
        }
    }
}

/// The contiguous dimension of an operand and its (inner, outer, line stride), or `None` when
/// neither dimension has unit stride (GemmProblem never makes such an operand).
fn layout(p: &GemmProblem, which: Operand) -> Option<(Major, u64, u64, i64)> {
    match which {
        // op(A) is m x k: unit stride along k is K-major.
        Operand::A if p.a.col == 1 => Some((Major::K, p.k, p.m, p.a.row)),
        Operand::A if p.a.row == 1 => Some((Major::MN, p.m, p.k, p.a.col)),
        // op(B) is k x n: unit stride along k (its rows) is K-major.
        Operand::B if p.b.row == 1 => Some((Major::K, p.k, p.n, p.b.col)),
        Operand::B if p.b.col == 1 => Some((Major::MN, p.n, p.k, p.b.row)),
        _ => None,
    }
}

fn caller_batch_stride(p: &GemmProblem, which: Operand) -> i64 {
    match which {
        Operand::A => p.a.batch,
        Operand::B => p.b.batch,
    }
}

/// Whether `which` is copied transposed when packed: B N-major under tf32 math, which PTX's
/// tf32 wgmma cannot read (it has no transpose for .tf32; an M-major A goes through registers).
pub fn needs_transpose(p: &GemmProblem, which: Operand) -> bool {
    which == Operand::B
        && p.math == crate::types::Math::MmaTf32
        && matches!(layout(p, which), Some((Major::MN, ..)))
}

/// Why `which`'s strides break TMA's rules (its leading dimension, or its batch stride when
/// batched), or why the Hopper kernel cannot read it as it is laid out (`needs_transpose`), or
/// `None` when it can read it in place (given an aligned base address).
pub fn stride_misfit(p: &GemmProblem, which: Operand) -> Option<String> {
    let elem = p.ab_type.size_bytes() as u64;
    let Some((_, _, _, ld)) = layout(p, which) else {
        return Some(format!("{} has no unit stride", which.name()));
    };
    if needs_transpose(p, which) {
        return Some("N-major under tf32 math, which wgmma reads K-major only".into());
    }
    if let Err(e) = sm90::tma_stride_ok(ld, elem) {
        return Some(format!("leading dimension {ld} {e}"));
    }
    let bs = caller_batch_stride(p, which);
    if p.batch > 1 {
        if let Err(e) = sm90::tma_stride_ok(bs, elem) {
            return Some(format!("batch stride {bs} {e}"));
        }
    }
    None
}

/// The operands whose strides break TMA's rules.
pub fn stride_misfits(p: &GemmProblem) -> Which {
    Which {
        a: stride_misfit(p, Operand::A).is_some(),
        b: stride_misfit(p, Operand::B).is_some(),
        d: false,
    }
}

/// A and B where TMA reads them in place but their lines start off the L2's 32-byte sectors (a
/// 16-bit leading dimension of 8 mod 16 elements): each of their TMA lines then costs several
/// times an aligned line's L2 requests (`streamk::line_requests`), which a copy at
/// `PACK_LINE_ALIGN` removes (`plan::pitch_packed_plans`, under `DEEPGEMM_PACK_PITCH=1`).
pub fn pitch_misfits(p: &GemmProblem) -> Which {
    let elem = p.ab_type.size_bytes() as u64;
    let off = |w: Operand| {
        stride_misfit(p, w).is_none()
            && layout(p, w).is_some_and(|(_, _, _, ld)| ld.unsigned_abs() * elem % 32 != 0)
    };
    Which {
        a: off(Operand::A),
        b: off(Operand::B),
        d: false,
    }
}

/// The operands whose base address TMA cannot use (not 16-byte aligned). A box cannot start
/// inside a 16-byte unit of its line either (sessions 9 and 14: CUDA_ERROR_ILLEGAL_INSTRUCTION),
/// so no map at the boundary below with shifted coordinates takes them: they are packed.
pub fn pointer_misfits(ptrs: &GemmPointers) -> Which {
    Which {
        a: ptrs.a % TMA_STRIDE_ALIGN != 0,
        b: ptrs.b % TMA_STRIDE_ALIGN != 0,
        d: false,
    }
}

/// D's contiguous dimension (MN: along m, K: along n), (inner, outer, leading dimension);
/// `None` without a unit stride.
fn d_layout(p: &GemmProblem) -> Option<(Major, u64, u64, i64)> {
    match (p.d.row, p.d.col) {
        (1, ld) => Some((Major::MN, p.m, p.n, ld)),
        (ld, 1) => Some((Major::K, p.n, p.m, ld)),
        _ => None,
    }
}

/// Why D's layout keeps the Hopper kernel from its TMA-store epilogue when it could have it
/// through an aligned copy in the workspace (16-bit D whose leading dimension, batch stride or
/// line length breaks TMA's 16-byte rules, with C, when read, laid out like D), or `None`.
/// Whether the copy pays is `d_pays`'s question.
pub fn d_misfit(p: &GemmProblem) -> Option<String> {
    if p.cd_type.size_bytes() != 2 {
        return None;
    }
    let (major, ..) = d_layout(p)?;
    let c_like_d = match major {
        Major::MN => p.c.row == 1,
        Major::K => p.c.col == 1,
    };
    if !c_like_d {
        return None;
    }
    sm90::tma_store(p, 0x1000, crate::problem::Scalar::Host(0.0)).err()
}

/// Whether copying D through the workspace beats the general epilogue for `tiles` output
/// tiles `block_n` wide and `area` (block_m x block_n) in size on `sms` SMs: the general
/// epilogue's cost per tile over the TMA-store epilogue's, on the busiest CTA's tiles
/// (proportional to the elements a tile writes: a one-row D, m = 1, costs it one row per tile,
/// not a whole tile), against reading and writing D once more in a dependent launch
/// (`d_copy_s`), by a margin of 1.1 (C's copy, when beta != 0, is not counted). Per 128-row
/// tile on the H200:
/// - D with unit stride along m (cuBLAS's column-major), stored down the columns a round of
///   the staged epilogue at a time (kernels/sm90/epilogue.cuh): ~1.0 us plus ~0.31 us a round
///   (`staged_rounds`). Session 32 (`32b`: 4096^3 with D's leading dimension 4097, forced onto
///   nine widths, in place against the copy): 128-256 wide in 4-8 rounds 2.4-4.2 us a tile,
///   the copy 20.4 us, so in place 1.5-4.4 us faster there; 208 and 176 (13 and 11 rounds of
///   16 columns) and 248 (10) 4.7, 3.9 and 1.3 us slower. At the model's plans: 4097^3 and
///   4100^3 (208 wide) ran 10 and 6.7 us faster through the copy, 4095^3, 2048^3 and
///   1000x3000x4000 (256, 256, 192) 1.3-3.1 us faster in place, as this rule decides.
/// - D with unit stride along n (row-major): ~17 us a 128x256 tile (the element-wise path;
///   4095^3 with column-major D's ld = 4095 ran 72 us slower than 4096^3 before session 9's
///   stores), scaled by the tile's area.
pub fn d_pays(p: &GemmProblem, block_n: u32, tiles: u64, area: u64, sms: u32) -> bool {
    let waves = tiles.div_ceil(sms.max(1) as u64) as f64;
    waves * in_place_d_tile_s(p, block_n, tiles, area) > 1.1 * d_copy_s(p)
}

/// The general epilogue's cost per output tile over the TMA-store epilogue's, for `tiles` tiles
/// `block_n` wide and `area` in size (see `d_pays`).
pub fn in_place_d_tile_s(p: &GemmProblem, block_n: u32, tiles: u64, area: u64) -> f64 {
    let filled = ((p.m * p.n * p.batch) as f64 / tiles.max(1) as f64).min(area as f64);
    if p.d.row == 1 {
        (1.0e-6 + 0.31e-6 * staged_rounds(block_n) as f64) * filled / area.max(1) as f64
    } else {
        17e-6 * filled / (128.0 * 256.0)
    }
}

/// The rounds of the staged epilogue for a tile `block_n` wide (kernels/sm90/epilogue.cuh
/// `Rounds` and `epilogue_staged`): 32 columns a round where the width is a multiple of 32,
/// else 16 where it is a multiple of 16, else its whole 32-column rounds and then 8 columns a
/// round.
pub fn staged_rounds(block_n: u32) -> u32 {
    if block_n % 32 == 0 {
        block_n / 32
    } else if block_n % 16 == 0 {
        block_n / 16
    } else {
        block_n / 32 + (block_n % 32).div_ceil(8)
    }
}

/// Reading and writing D once more (the copy back from the workspace, after the GEMM): ~20.4
/// us for 4096^3's 33.6 MB on the H200 (`32a`, `32b`), a launch's ~2 us and the rest at
/// ~3.6 TB/s (the copy reads what the GEMM's TMA stores just left in the L2).
pub fn d_copy_s(p: &GemmProblem) -> f64 {
    let d_bytes = (p.m * p.n * p.batch * p.cd_type.size_bytes() as u64) as f64;
    2.0 * d_bytes / D_COPY_BYTES_PER_S + D_COPY_LAUNCH_S
}

/// `DEEPGEMM_PACK_D` = `1` (a D that TMA cannot address always goes through its aligned copy in
/// the workspace, when there is room) or `0` (never: the general epilogue stores it in place),
/// for measuring one against the other like `DEEPGEMM_CLUSTER`; unset: `d_pays` decides.
/// Read once.
pub fn d_copy_forced() -> Option<bool> {
    static F: once_cell::sync::Lazy<Option<bool>> =
        once_cell::sync::Lazy::new(|| match std::env::var("DEEPGEMM_PACK_D").as_deref() {
            Ok("1") => Some(true),
            Ok("0") => Some(false),
            _ => None,
        });
    *F
}

/// Launch and ramp of the dependent copy of D after the GEMM, and its rate (`d_copy_s`).
const D_COPY_LAUNCH_S: f64 = 2e-6;
const D_COPY_BYTES_PER_S: f64 = 3.6e12;

/// The copies of the operands in `which`, laid out at the start of the workspace (A first),
/// or `None` when an operand cannot be packed (no unit stride, empty, or sizes that overflow).
pub fn spec(p: &GemmProblem, which: Which) -> Option<PackSpec> {
    let mut offset = 0u64;
    // One dense copy of a matrix with this (major, inner, outer, leading dimension), batch
    // stride and element size, at the next 256-byte boundary of the workspace.
    let mut copy = |(major, inner, outer, src_ld): (Major, u64, u64, i64),
                    transposed: bool,
                    src_batch_stride: i64,
                    elem: u64|
     -> Option<PackedOperand> {
        if inner == 0 || outer == 0 || p.batch == 0 {
            return None;
        }
        // A transposed copy's lines run along the caller's other dimension.
        let (major, inner, outer) = match (transposed, major) {
            (false, _) => (major, inner, outer),
            (true, Major::MN) => (Major::K, outer, inner),
            (true, Major::K) => (Major::MN, outer, inner),
        };
        let line_bytes = inner
            .checked_mul(elem)?
            .checked_next_multiple_of(PACK_LINE_ALIGN)?;
        let ld = line_bytes / elem;
        let batch_stride = ld.checked_mul(outer)?;
        let bytes = line_bytes.checked_mul(outer)?.checked_mul(p.batch)?;
        let o = PackedOperand {
            major,
            transposed,
            inner,
            outer,
            batch: p.batch,
            src_ld,
            // With one batch the stride is never used; kept as the caller gave it.
            src_batch_stride,
            ld: i64::try_from(ld).ok()?,
            batch_stride: i64::try_from(batch_stride).ok()?,
            elem_bytes: elem as u32,
            offset,
            bytes,
        };
        offset = offset
            .checked_add(bytes)?
            .checked_next_multiple_of(PACK_BASE_ALIGN)?;
        Some(o)
    };
    let ab = p.ab_type.size_bytes() as u64;
    let mut operand = |op: Operand| {
        let t = needs_transpose(p, op);
        copy(layout(p, op)?, t, caller_batch_stride(p, op), ab)
    };
    let a = if which.a {
        Some(operand(Operand::A)?)
    } else {
        None
    };
    let b = if which.b {
        Some(operand(Operand::B)?)
    } else {
        None
    };
    let d = if which.d {
        Some(copy(
            d_layout(p)?,
            false,
            p.d.batch,
            p.cd_type.size_bytes() as u64,
        )?)
    } else {
        None
    };
    (a.is_some() || b.is_some() || d.is_some()).then_some(PackSpec { a, b, d })
}

/// C's copy into D's workspace buffer, when the kernel reads C (beta != 0): D's copy with C's
/// strides as the source.
pub fn c_into_d_copy(p: &GemmProblem, d: &PackedOperand) -> PackedOperand {
    PackedOperand {
        src_ld: match d.major {
            Major::MN => p.c.col,
            Major::K => p.c.row,
        },
        src_batch_stride: p.c.batch,
        ..*d
    }
}

/// The problem the sm90 kernel runs after packing: the same m, n, k, types, epilogue, C and
/// D, with A's and B's strides replaced by their copies' where packed.
pub fn packed_problem(p: &GemmProblem, spec: &PackSpec) -> GemmProblem {
    let mut q = *p;
    if let Some(a) = spec.a {
        q.a = a.strides(Operand::A);
        q.extent[0] = a.extent();
    }
    if let Some(b) = spec.b {
        q.b = b.strides(Operand::B);
        q.extent[1] = b.extent();
    }
    if let Some(d) = spec.d {
        let (row, col) = match d.major {
            Major::MN => (1, d.ld),
            Major::K => (d.ld, 1),
        };
        let s = Strides {
            row,
            col,
            batch: d.batch_stride,
        };
        q.c = s;
        q.d = s;
        q.extent[2] = d.extent();
        q.extent[3] = d.extent();
    }
    q
}

/// The pointers the sm90 kernel runs with after packing: packed operands are read from their
/// copies in the workspace at `workspace` (a device address), the rest as the caller gave.
pub fn packed_pointers(ptrs: &GemmPointers, spec: &PackSpec, workspace: u64) -> GemmPointers {
    let mut q = *ptrs;
    // Wrapping: a workspace address near 2^64 is the caller's error, not a reason to panic
    // (the launch then fails with the driver's error).
    if let Some(a) = spec.a {
        q.a = workspace.wrapping_add(a.offset);
    }
    if let Some(b) = spec.b {
        q.b = workspace.wrapping_add(b.offset);
    }
    if let Some(d) = spec.d {
        // C (when read) is copied into D's buffer first.
        q.d = workspace.wrapping_add(d.offset);
        q.c = q.d;
    }
    q
}

/// Whether a plan that packs `spec` (or nothing) can run with `ptrs` (in the plan's
/// orientation): the operands it does not pack must be at addresses TMA can take
/// (`pointer_misfits`).
pub fn accepts(spec: Option<&PackSpec>, ptrs: &GemmPointers) -> bool {
    let packed = spec.map_or(Which::NONE, PackSpec::which);
    let bad = pointer_misfits(ptrs);
    (!bad.a || packed.a) && (!bad.b || packed.b)
}

/// The Hopper plan for `p` with its misfitting operands packed (those whose strides break
/// TMA's rules, plus those in `also`, e.g. for a misaligned base address), or why there is
/// none: no operand needs packing, or the sm90 kernel would not take `p` even packed (types,
/// k = 0, device, sizes).
pub fn hopper_packed(p: &GemmProblem, dev: &DeviceSpec, also: Which) -> Result<Plan, String> {
    hopper_packed_plans(p, dev, also).map(|plans| plans[0])
}

/// Every Hopper plan (`plan::hopper_plans`, best first) on packed copies of the operands that
/// need them (`also` adds operands to pack, e.g. for misaligned pointers).
pub fn hopper_packed_plans(
    p: &GemmProblem,
    dev: &DeviceSpec,
    also: Which,
) -> Result<Vec<Plan>, String> {
    let mut which = stride_misfits(p).or(also);
    // The plans of A and B packed with D left in place, where the probe below made them.
    let mut probed: Option<Vec<Plan>> = None;
    if d_misfit(p).is_some() {
        // Only when the copy beats the general epilogue at the tile count of the best plan
        // (D's layout does not change which tiles the model prefers).
        let ab = Which { d: false, ..which };
        let ab_spec = spec(p, ab);
        let probe = match ab_spec {
            Some(s) => packed_problem(p, &s),
            None => *p,
        };
        let plans = crate::plan::hopper_plans(&probe, dev)?;
        if let Some(best) = plans.first() {
            if let crate::plan::Kernel::Sm90(v) = best.kernel {
                let area = v.block_m as u64 * v.block_n as u64;
                which.d = d_copy_forced()
                    .unwrap_or_else(|| d_pays(p, v.block_n, v.num_tiles(p), area, dev.sm_count));
            }
        }
        // Without D's copy the problem below is the probe's own: its plans are these (a slab
        // plan's blocks plan this twice each otherwise).
        probed = ab_spec.is_some().then_some(plans);
    }
    if !which.any() {
        return Err("A, B and D suit TMA as they are".into());
    }
    let spec = spec(p, which).ok_or("the operands cannot be packed (sizes)")?;
    let mut pack_ns = (estimate(p, &spec).pack_s * 1e9) as u64;
    if spec.d.is_some() {
        pack_ns += (d_copy_s(p) * 1e9) as u64;
    }
    let mut plans = match probed {
        Some(plans) if !which.d => plans,
        _ => crate::plan::hopper_plans(&packed_problem(p, &spec), dev)?,
    };
    for plan in &mut plans {
        // The copies come first in the workspace; whatever else the plan needs follows them.
        plan.workspace += spec.workspace_bytes();
        plan.pack = Some(spec);
        plan.estimate_ns += pack_ns;
    }
    Ok(plans)
}

/// The cost model's estimate for packing `spec` and running `p` on the Hopper kernel, against
/// running it on the portable kernel (seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub pack_s: f64,
    pub hopper_s: f64,
    pub portable_s: f64,
}

impl Estimate {
    pub fn pays(&self) -> bool {
        self.pack_s + self.hopper_s < self.portable_s
    }
}

pub fn estimate(p: &GemmProblem, spec: &PackSpec) -> Estimate {
    // Each copy after the first runs alongside it: its launch is charged at the overlapped
    // rate (`PACK_OVERLAPPED_LAUNCH_S`) instead of `copy_s`'s whole one.
    let copies = spec.operands().count();
    Estimate {
        pack_s: spec.operands().map(|(_, o)| copy_s(&o)).sum::<f64>()
            - copies.saturating_sub(1) as f64 * (PACK_LAUNCH_S - PACK_OVERLAPPED_LAUNCH_S),
        hopper_s: (p.flops() / HOPPER_FLOPS).max(HOPPER_MIN_S) + short_d_s(p),
        portable_s: portable_s(p),
    }
}

/// `SHORT_D_S` where it applies to `p`, else 0.
pub fn short_d_s(p: &GemmProblem) -> f64 {
    let short = p.m < SHORT_D_ROWS
        && p.m.saturating_mul(p.n).saturating_mul(p.batch.max(1)) < SHORT_D_ELEMENTS;
    // D's layout only (beta and D's address are the call's): whether the TMA store can write it.
    let staged = || !sm90::tma_store_ok(p, 0x1000, crate::problem::Scalar::Host(0.0), false);
    if short && (p.m < SHORT_D_STORED_ROWS || staged()) {
        SHORT_D_S
    } else {
        0.0
    }
}

/// The model's time for one pack launch copying `o` (its bytes read and written).
pub fn copy_s(o: &PackedOperand) -> f64 {
    let rate = if o.transposed {
        TRANSPOSE_BYTES_PER_S
    } else {
        PACK_BYTES_PER_S
    };
    (o.bytes_read() as f64 + o.bytes as f64) / rate + PACK_LAUNCH_S
}

/// The model's time for `p` on the portable kernel: its tensor rate, or its walk through k
/// (`PORTABLE_K_S` a k per wave of resident tiles), whichever is longer, plus its fixed cost.
pub fn portable_s(p: &GemmProblem) -> f64 {
    let tile = crate::plan::KernelVariant::portable(p.ab_type, p.cd_type, p.math).tile;
    let tiles =
        p.m.div_ceil(tile.m as u64)
            .saturating_mul(p.n.div_ceil(tile.n as u64))
            .saturating_mul(p.batch.max(1));
    let waves = tiles.div_ceil(PORTABLE_RESIDENT_TILES);
    (p.flops() / PORTABLE_FLOPS).max(waves as f64 * p.k as f64 * PORTABLE_K_S) + PORTABLE_FIXED_S
}

/// Whether packing `spec` makes `p` faster than the portable kernel (see `PACK_BYTES_PER_S`).
pub fn pays(p: &GemmProblem, spec: &PackSpec) -> bool {
    estimate(p, spec).pays()
}

/// For the plan log: what was packed and why, e.g. "packed A (leading dimension 4097 is not a
/// multiple of 16 bytes (TMA); ld 4097 -> 4160) into 8519680 bytes of workspace".
pub fn describe(p: &GemmProblem, ptrs: &GemmPointers, spec: &PackSpec) -> String {
    let parts: Vec<String> = spec
        .operands()
        .map(|(op, o)| {
            let addr = match op {
                Operand::A => ptrs.a,
                Operand::B => ptrs.b,
            };
            let why = stride_misfit(p, op).unwrap_or_else(|| {
                if addr % TMA_STRIDE_ALIGN != 0 {
                    format!("base address {addr:#x} is not 16-byte aligned (TMA)")
                } else {
                    "chosen by the caller's algo".into()
                }
            });
            format!("{} ({why}; ld {} -> {})", op.name(), o.src_ld, o.ld)
        })
        .collect();
    let e = estimate(p, spec);
    format!(
        "packed {} into {} bytes of workspace (model: {:.1} us pack + {:.1} us vs {:.1} us portable)",
        parts.join(", "),
        spec.workspace_bytes(),
        e.pack_s * 1e6,
        e.hopper_s * 1e6,
        e.portable_s * 1e6
    )
}

/// The pack kernel: one compiled binary per element size.
///
/// The kernel (kernels/pack/pack.cuh) moves 16-byte chunks: each lane stores one 16-byte
/// aligned chunk of a destination line per step, from 16-byte loads of the source funnel-shifted
/// by the line's misalignment. A warp work item is `segment` consecutive chunks of one
/// destination line; the host splits lines into items (`split`) and passes both numbers in
/// `PackParams` (src/jit/pack.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PackVariant {
    /// Bytes per element: 2 (bf16/fp16) or 4 (fp32/tf32).
    pub elem_bytes: u32,
    /// Threads per CTA.
    pub threads: u32,
    /// CTAs per SM the kernel is compiled for (`__launch_bounds__`' minimum, which caps its
    /// registers) and the grid is sized for.
    pub ctas_per_sm: u32,
    /// 16-byte chunks each lane loads before storing any (loads in flight per thread).
    pub unroll: u32,
    /// Most passes of `32 * unroll` chunks in one warp work item.
    pub passes: u32,
    /// The transposing form (`PackedOperand::transposed`): tiles of `TRANSPOSE_TILE` x
    /// `TRANSPOSE_TILE` elements through shared memory, a CTA at a time; `unroll` and
    /// `passes` unused (0).
    pub transpose: bool,
}

/// Elements along each side of the transposing copy's tile.
pub const TRANSPOSE_TILE: u64 = 64;

/// Threads per pack CTA.
pub const PACK_THREADS: u32 = 256;
/// Bytes every lane of the pack kernel moves at once: its destination chunks are aligned to it.
pub const PACK_CHUNK_BYTES: u64 = 16;

/// Items per line and chunks per item of the pack kernel (`PackParams::segments` and
/// `::segment`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackSplit {
    pub segments: u64,
    pub segment: u64,
}

impl PackVariant {
    /// The variant for `elem_bytes`-byte elements, `None` for sizes the kernel has no word for.
    pub fn for_elem(elem_bytes: u32) -> Option<PackVariant> {
        matches!(elem_bytes, 2 | 4).then_some(PackVariant {
            elem_bytes,
            threads: PACK_THREADS,
            // 4 x 256 threads: 1024 per SM, which leaves each thread 64 registers (ptxas needs
            // 58-64 for 4 chunks in flight; tests/nvrtc_compile.rs checks for spills).
            ctas_per_sm: 4,
            // 4 chunks of 16 bytes in flight per thread: 64 KB per SM, ~8.5 MB over an H200's
            // 132 SMs, about twice what ~1 us of HBM latency at ~4 TB/s needs.
            unroll: 4,
            // Items of up to 4 passes (8 KB): the two 64-bit divisions that locate an item and
            // the per-line setup are paid once per 512 chunks at most.
            passes: 4,
            transpose: false,
        })
    }

    /// The transposing variant for `elem_bytes`-byte elements: 4 only (tf32's B).
    pub fn transposing(elem_bytes: u32) -> Option<PackVariant> {
        (elem_bytes == 4).then_some(PackVariant {
            elem_bytes,
            threads: PACK_THREADS,
            // 16.6 KB of shared memory a CTA (64 x 65 words), 16 loads in flight a thread:
            // 64 KB an SM at 4 CTAs, whose 64 registers a thread hold them (at 8 CTAs, 32
            // registers, ptxas spilled on sm_80).
            ctas_per_sm: 4,
            unroll: 0,
            passes: 0,
            transpose: true,
        })
    }

    /// The variant that makes `o`'s copy.
    pub fn for_operand(o: &PackedOperand) -> Option<PackVariant> {
        if o.transposed {
            Self::transposing(o.elem_bytes)
        } else {
            Self::for_elem(o.elem_bytes)
        }
    }

    /// Every pack variant (CI compiles each of them).
    pub fn all() -> Vec<PackVariant> {
        let plain = [2, 4].into_iter().filter_map(Self::for_elem);
        plain.chain(Self::transposing(4)).collect()
    }

    /// The entry symbol, cache-key prefix and log label, e.g. `dg_pack_b16_t256_c4_u4_p4`:
    /// element bits, threads per CTA, CTAs per SM, chunks per lane, passes per item; the
    /// transposing form `dg_packt_b32_t256_c4` (tile `TRANSPOSE_TILE`).
    pub fn name(&self) -> String {
        if self.transpose {
            return format!(
                "dg_packt_b{}_t{}_c{}",
                self.elem_bytes * 8,
                self.threads,
                self.ctas_per_sm
            );
        }
        format!(
            "dg_pack_b{}_t{}_c{}_u{}_p{}",
            self.elem_bytes * 8,
            self.threads,
            self.ctas_per_sm,
            self.unroll,
            self.passes
        )
    }

    /// Chunks of one warp pass (32 lanes x `unroll`).
    pub fn pass(&self) -> u64 {
        32 * self.unroll as u64
    }

    /// Most chunks of one warp work item.
    pub fn max_segment(&self) -> u64 {
        self.pass() * self.passes as u64
    }

    /// Destination chunks of a line of `write` elements that starts `offset` bytes past a
    /// 16-byte boundary (the kernel's chunks are aligned on destination addresses, so such a
    /// line touches one more chunk when its end crosses one more boundary).
    pub fn line_chunks(&self, write: u64, offset: u64) -> u64 {
        (offset + write * self.elem_bytes as u64).div_ceil(PACK_CHUNK_BYTES)
    }

    /// The largest `offset` (bytes past a 16-byte boundary) of the lines that start at
    /// `base + (b * bs + row * ld) * elem_bytes` for `row < outer`, `b < batch`: the
    /// offsets are `base` modulo the gcd `g` of 16 and the strides' bytes, so at most
    /// `base % g + 16 - g`.
    pub fn max_line_offset(&self, base: u64, ld: i64, bs: i64, outer: u64, batch: u64) -> u64 {
        fn gcd(a: u64, b: u64) -> u64 {
            if b == 0 { a } else { gcd(b, a % b) }
        }
        let e = self.elem_bytes as i64;
        let mut g = PACK_CHUNK_BYTES;
        if outer > 1 {
            g = gcd(g, (ld * e).rem_euclid(16) as u64);
        }
        if batch > 1 {
            g = gcd(g, (bs * e).rem_euclid(16) as u64);
        }
        base % g + PACK_CHUNK_BYTES - g
    }

    /// Splits lines of at most `chunks` destination chunks into the fewest items of at most
    /// `max_segment()` chunks, of equal size rounded up to a multiple of 32 chunks (a warp's
    /// 16-byte stores then stay 512-byte groups of the line, and a line's items take about as
    /// long as each other). The kernel's items of a line are [s * segment, (s + 1) * segment)
    /// clipped to the line's own chunk count, for s < segments.
    pub fn split(&self, chunks: u64) -> PackSplit {
        let groups = chunks.div_ceil(32).max(1);
        let segments = groups.div_ceil(self.max_segment() / 32);
        PackSplit {
            segments,
            segment: 32 * groups.div_ceil(segments),
        }
    }

    /// The split of `o`'s copy: lines of `o.ld` elements from a 16-byte aligned start.
    pub fn pack_split(&self, o: &PackedOperand) -> PackSplit {
        self.split(self.line_chunks(o.ld as u64, 0))
    }

    /// Work items per destination line when copying `o` into the workspace.
    pub fn segments(&self, o: &PackedOperand) -> u64 {
        self.pack_split(o).segments
    }

    /// CTAs for copying `o` either way: one warp per work item, capped at one wave of
    /// `ctas_per_sm` CTAs per SM (the kernel's grid-stride loop takes the rest). The copy back
    /// writes `inner` elements a line into a D that may start anywhere, counted at the worst
    /// line offset (16 - elem_bytes), so the grid covers it as well.
    pub fn grid(&self, o: &PackedOperand, dev: &DeviceSpec) -> u32 {
        let per_sm = dev.ctas_per_sm(self.ctas_per_sm);
        let wave = dev.sm_count.max(1) as u64 * per_sm as u64;
        if self.transpose {
            // One CTA a tile of the copy (its padding included), grid-stride past a wave.
            return self.transpose_tiles(o).clamp(1, wave) as u32;
        }
        let back = self.split(self.line_chunks(o.inner, 16 - self.elem_bytes as u64));
        let items = self.segments(o).max(back.segments) * o.outer * o.batch;
        let warps = (self.threads / 32) as u64;
        items.div_ceil(warps).clamp(1, wave) as u32
    }

    /// Tiles of the transposing copy of `o`: its lines' whole length (`ld`, the padding
    /// zeroed) by its lines, in `TRANSPOSE_TILE` steps, every batch.
    pub fn transpose_tiles(&self, o: &PackedOperand) -> u64 {
        (o.ld as u64)
            .div_ceil(TRANSPOSE_TILE)
            .saturating_mul(o.outer.div_ceil(TRANSPOSE_TILE))
            .saturating_mul(o.batch)
    }

    /// Plain loads and stores: any architecture deepgemm runs on (sm_75+).
    pub fn runs_on(&self, dev: &DeviceSpec) -> bool {
        dev.cc_major > 7 || (dev.cc_major == 7 && dev.cc_minor >= 5)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{Kernel, candidates, choose_for_call, portable};
    use crate::problem::{MatrixSpec, OpSpec, Scalar};
    use crate::types::{compute_type::*, cuda_data_type::*, order};

    const H200: DeviceSpec = DeviceSpec::H200;

    /// A problem with the given transposes (cuBLAS column-major terms), storage order of A and
    /// B, leading dimensions (None: the minimum) and batches (batch count, strides of A and B;
    /// None: dense).
    #[allow(clippy::too_many_arguments)]
    fn problem(
        m: u64,
        n: u64,
        k: u64,
        (ta, tb): (i32, i32),
        row_major: bool,
        ab: i32,
        lds: (Option<i64>, Option<i64>),
        batch: (i32, Option<i64>, Option<i64>),
    ) -> GemmProblem {
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = ta;
        op.trans_b = tb;
        let stored = |rows: u64, cols: u64, ld: Option<i64>, bs: Option<i64>| {
            let min_ld = if row_major { cols } else { rows };
            let ld = ld.unwrap_or(min_ld.max(1) as i64);
            let mut s = MatrixSpec::col(ab, rows, cols, ld);
            if row_major {
                s.order = order::ROW;
            }
            s.batch_count = batch.0;
            let span = ld * if row_major { rows } else { cols } as i64;
            s.batch_stride = bs.unwrap_or(if batch.0 > 1 { span } else { 0 });
            s
        };
        let (ar, ac) = if ta == 0 { (m, k) } else { (k, m) };
        let (br, bc) = if tb == 0 { (k, n) } else { (n, k) };
        let a = stored(ar, ac, lds.0, batch.1);
        let b = stored(br, bc, lds.1, batch.2);
        let mut c = MatrixSpec::col(ab, m, n, m.max(1) as i64);
        c.batch_count = batch.0;
        c.batch_stride = (m * n) as i64;
        GemmProblem::new(&op, &a, &b, &c, &c).unwrap()
    }

    /// Column-major bf16 TN (A K-major, B K-major), unbatched.
    fn tn(m: u64, n: u64, k: u64, lda: Option<i64>, ldb: Option<i64>) -> GemmProblem {
        problem(m, n, k, (1, 0), false, R_16BF, (lda, ldb), (1, None, None))
    }

    /// Lines mid-sector: a 16-bit leading dimension of 8 mod 16 elements, where TMA still reads
    /// the operand in place (a misfit stride is packed anyway, so it is not listed here).
    #[test]
    fn pitch_misfits_are_the_lines_off_the_sectors() {
        // TN: both operands K-major at ld = k.
        assert_eq!(pitch_misfits(&tn(5888, 280, 5640, None, None)), Which::BOTH);
        assert_eq!(pitch_misfits(&tn(5888, 280, 5632, None, None)), Which::NONE);
        // 16 mod 64 elements (32 mod 128 bytes): on a sector, not listed.
        assert_eq!(pitch_misfits(&tn(512, 512, 4112, None, None)), Which::NONE);
        // Only B's leading dimension off the sectors.
        assert_eq!(
            pitch_misfits(&tn(512, 512, 4096, None, Some(4104))),
            Which {
                a: false,
                b: true,
                d: false
            }
        );
        // An odd k: both packed for TMA already, so neither is a pitch misfit.
        assert_eq!(pitch_misfits(&tn(512, 512, 4097, None, None)), Which::NONE);
        // NN: A M-major at ld = m, B K-major at ld = k.
        let nn = problem(
            1000,
            512,
            4096,
            (0, 0),
            false,
            R_16BF,
            (None, None),
            (1, None, None),
        );
        assert_eq!(
            pitch_misfits(&nn),
            Which {
                a: true,
                b: false,
                d: false
            }
        );
        // fp32 (tf32): 4-byte elements, so a leading dimension of 4 mod 8 is off the sectors.
        let f = problem(
            512,
            512,
            4100,
            (1, 0),
            false,
            R_32F,
            (None, None),
            (1, None, None),
        );
        assert_eq!(pitch_misfits(&f), Which::BOTH);
    }

    /// The pitch plans copy only operands off the sectors, charge the copies, and come out
    /// best first; an aligned problem has none.
    #[test]
    fn pitch_packed_plans_copy_the_misfits() {
        let p = tn(5888, 280, 5640, None, None);
        let plans = crate::plan::pitch_packed_plans(&p, &H200);
        assert!(!plans.is_empty() && plans.len() <= 6);
        assert!(
            plans
                .windows(2)
                .all(|w| w[0].estimate_ns <= w[1].estimate_ns)
        );
        let tags: std::collections::HashSet<String> =
            plans.iter().map(|c| c.pack.unwrap().tag()).collect();
        assert_eq!(
            tags,
            ["a", "b", "ab"].map(String::from).into_iter().collect()
        );
        for c in &plans {
            let s = c.pack.unwrap();
            assert!(s.d.is_none() && !c.swap);
            // Packed lines are whole 128-byte L2 lines apart.
            for o in [s.a, s.b].into_iter().flatten() {
                assert_eq!(o.ld as u64 * 2 % PACK_LINE_ALIGN, 0);
            }
            assert!(c.workspace >= s.workspace_bytes());
        }
        // B's copy (3.2 MB) is charged less than A's (66 MB): its plan comes first of the two.
        let first = |t: &str| {
            plans
                .iter()
                .position(|c| c.pack.unwrap().tag() == t)
                .unwrap()
        };
        assert!(first("b") < first("a"));
        assert!(
            crate::plan::pitch_packed_plans(&tn(5888, 280, 5632, None, None), &H200).is_empty()
        );
        // Only B off the sectors: B's copies alone.
        let q = tn(512, 512, 4096, None, Some(4104));
        let only_b = crate::plan::pitch_packed_plans(&q, &H200);
        assert!(!only_b.is_empty() && only_b.iter().all(|c| c.pack.unwrap().tag() == "b"));
    }

    /// bf16 TN with D (and C) column-major, leading dimension `ldd`, or row-major.
    fn tn_d(m: u64, n: u64, k: u64, ldd: i64, cd: i32, c_row_major: bool) -> GemmProblem {
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = 1;
        let a = MatrixSpec::col(R_16BF, k, m, k as i64);
        let b = MatrixSpec::col(R_16BF, k, n, k as i64);
        let d = MatrixSpec::col(cd, m, n, ldd);
        let mut c = d;
        if c_row_major {
            c.order = order::ROW;
            c.ld = n as i64;
        }
        GemmProblem::new(&op, &a, &b, &c, &d).unwrap()
    }

    /// bf16 TN with D and C row-major, leading dimension `ldd`.
    fn tn_d_row(m: u64, n: u64, k: u64, ldd: i64) -> GemmProblem {
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = 1;
        let a = MatrixSpec::col(R_16BF, k, m, k as i64);
        let b = MatrixSpec::col(R_16BF, k, n, k as i64);
        let mut d = MatrixSpec::col(R_16BF, m, n, ldd);
        d.order = order::ROW;
        GemmProblem::new(&op, &a, &b, &d, &d).unwrap()
    }

    #[test]
    fn d_goes_through_an_aligned_copy_when_its_layout_costs_the_tma_store() {
        // Row-major D, ldd = 4097: not 16-byte lines; n = 4097 also ends lines inside a
        // 16-byte unit. (A column-major D like it is stored down its columns instead:
        // `d_pays`.)
        let p = tn_d_row(4096, 4097, 4096, 4097);
        assert!(d_misfit(&p).is_some());
        let c = candidates(&p, &H200).unwrap();
        // Never a row-major odd D stored in place (element by element): first its transposed
        // plan, which stores a column-major D down its columns (charged since session 49,
        // `streamk::in_place_d_tile_s`; as fast as D's copy for 4096^3 with D's ld 4097: 193.9
        // us in place, session 49, against ~196 through the copy, session 32), then D's copy.
        assert!(c[0].swap && c[0].pack.is_none(), "{}", c[0].name());
        assert!(
            c.iter()
                .all(|q| q.swap || q.pack.is_some() || !matches!(q.kernel, Kernel::Sm90(_))),
            "a direct plan leaves the row-major D in place"
        );
        let first = *c
            .iter()
            .find(|q| q.pack.is_some())
            .expect("D's copy among the candidates");
        let s = first.pack.expect("D packed");
        assert_eq!((s.a, s.b, s.tag().as_str()), (None, None, "d"));
        let d = s.d.unwrap();
        assert_eq!(
            (d.major, d.inner, d.outer, d.src_ld, d.ld),
            (Major::K, 4097, 4096, 4097, 4160)
        );
        assert_eq!(d.bytes, 4160 * 4096 * 2);
        assert!(first.workspace >= s.workspace_bytes());
        assert!(first.name().contains("+pack_d"), "{}", first.name());
        assert!(matches!(c.last().unwrap().kernel, Kernel::Portable(_)));
        // The kernel then runs on D's (and C's) copy: unit stride along n, ld 4160.
        let q = packed_problem(&p, &s);
        assert_eq!((q.d.row, q.d.col, q.c.row, q.c.col), (4160, 1, 4160, 1));
        assert!(sm90::tma_store_with(&q, 0x1000, Scalar::Host(0.0), true).is_ok());
        assert!(
            sm90::tma_store(&q, 0x1000, Scalar::Host(0.0)).is_err(),
            "ragged n"
        );
        let ws = 0x4000_0000;
        let r = packed_pointers(&ptrs(0x1000, 0x2000), &s, ws);
        assert_eq!(
            (r.c, r.d, r.a, r.b),
            (ws + d.offset, ws + d.offset, 0x1000, 0x2000)
        );
        // C into D's copy (beta != 0): C's own strides as the source.
        let cd = c_into_d_copy(&p, &d);
        assert_eq!((cd.src_ld, cd.ld, cd.offset), (4097, 4160, d.offset));
        // A/B packed too: D follows them in the workspace.
        let abd = tn_d_row(4096, 4097, 4097, 4097);
        let s = candidates(&abd, &H200)
            .unwrap()
            .iter()
            .find_map(|q| q.pack.filter(|s| s.d.is_some()))
            .unwrap();
        assert_eq!(s.tag(), "abd");
        assert!(s.d.unwrap().offset >= s.b.unwrap().offset + s.b.unwrap().bytes);
        assert_eq!(
            s.workspace_bytes(),
            (s.d.unwrap().offset + s.d.unwrap().bytes).next_multiple_of(256)
        );
    }

    #[test]
    fn d_stays_where_it_is_when_the_copy_cannot_help() {
        // Aligned D: the TMA store takes it as it is.
        assert!(d_misfit(&tn_d(4096, 4096, 4096, 4096, R_16BF, false)).is_none());
        // fp32 D: no TMA-store epilogue for it in any case.
        assert!(d_misfit(&tn_d(4097, 4096, 4096, 4097, R_32F, false)).is_none());
        // C laid out differently from D: the copy of C would need a transpose.
        assert!(d_misfit(&tn_d(4097, 4096, 4096, 4097, R_16BF, true)).is_none());
        // Too small to pay: one wave of small tiles against two copies and a launch.
        let small = tn_d(129, 64, 64, 129, R_16BF, false);
        assert!(d_misfit(&small).is_some());
        assert!(!d_pays(&small, 64, 2, 128 * 64, 132));
        let c = candidates(&small, &H200).unwrap();
        assert!(c.iter().all(|p| p.pack.is_none()), "{:?}", c[0].name());
        // Big row-major ones pay: 5 waves of 128x256 tiles against ~21 us of copies.
        assert!(d_pays(
            &tn_d_row(4096, 4097, 4096, 4097),
            256,
            561,
            128 * 256,
            132
        ));
        // A column-major D, stored down its columns, only on widths of many rounds (`32b`):
        // 128x256 tiles take 8 rounds, ~3.5 us a tile, so 5 waves of them stay in place
        // against ~20.6 us of copies, and so do 100 waves of tiles 4% filled.
        let col = tn_d(4097, 4096, 4096, 4097, R_16BF, false);
        assert!(!d_pays(&col, 256, 561, 128 * 256, 132));
        assert!(!d_pays(&col, 256, 132 * 100, 128 * 256, 132));
        // 208 wide: 13 rounds of 16 columns, ~5 us a tile: 4097^3's 660 tiles (5 waves) pay
        // for the copy (it ran 10 us faster), 4095^3's 512 128x256 tiles (4 waves) do not.
        let cube = tn_d(4097, 4097, 4097, 4097, R_16BF, false);
        assert!(d_pays(&cube, 208, 660, 128 * 208, 132));
        assert!(!d_pays(
            &tn_d(4095, 4095, 4095, 4095, R_16BF, false),
            256,
            512,
            128 * 256,
            132
        ));
        assert_eq!(
            [256, 248, 232, 224, 208, 192, 176, 160, 128, 16].map(staged_rounds),
            [8, 10, 8, 7, 13, 6, 11, 5, 4, 1]
        );
        assert!(
            candidates(&col, &H200)
                .unwrap()
                .iter()
                .all(|p| p.pack.is_none())
        );
    }

    fn ptrs(a: u64, b: u64) -> GemmPointers {
        GemmPointers {
            alpha: Scalar::Host(1.0),
            beta: Scalar::Host(0.0),
            a,
            b,
            c: 0,
            d: 0x9000_0000,
            bias: 0,
        }
    }

    #[test]
    fn only_the_misfitting_operand_is_packed() {
        // lda = k = 4097 (odd), ldb = 4104 (aligned): A only.
        let p = tn(1024, 1024, 4097, None, Some(4104));
        assert_eq!(
            stride_misfits(&p),
            Which {
                a: true,
                b: false,
                d: false
            }
        );
        let plan = hopper_packed(&p, &H200, Which::NONE).unwrap();
        let s = plan.pack.unwrap();
        assert!(s.b.is_none());
        let a = s.a.unwrap();
        assert_eq!(
            (a.major, a.inner, a.outer, a.batch),
            (Major::K, 4097, 1024, 1)
        );
        assert_eq!(
            (a.src_ld, a.ld),
            (4097, 4160),
            "8194 bytes -> 8320 (65 x 128)"
        );
        assert_eq!(a.bytes, 8320 * 1024);
        assert_eq!(a.offset, 0);
        assert_eq!(s.workspace_bytes(), 8320 * 1024);
        // The copies, then whatever the schedule needs (Stream-K fixup) after them.
        let sk = match plan.kernel {
            Kernel::Sm90(v) => plan.decomposition.workspace_bytes(&v, 4097u64.div_ceil(64)),
            k => panic!("{k:?}"),
        };
        assert_eq!(plan.workspace, 8320 * 1024 + sk);
        // B only, then both; B follows A at a 256-byte boundary.
        let p = tn(1000, 1000, 4096, Some(4096), Some(4099));
        assert_eq!(
            stride_misfits(&p),
            Which {
                a: false,
                b: true,
                d: false
            }
        );
        let s = hopper_packed(&p, &H200, Which::NONE).unwrap().pack.unwrap();
        assert!(s.a.is_none());
        assert_eq!(s.b.unwrap().offset, 0);
        assert_eq!(s.b.unwrap().ld, 4096);
        let p = tn(1000, 999, 4097, None, None);
        let s = hopper_packed(&p, &H200, Which::NONE).unwrap().pack.unwrap();
        let (a, b) = (s.a.unwrap(), s.b.unwrap());
        assert_eq!(a.bytes, 8320 * 1000);
        assert_eq!(b.offset, (8320u64 * 1000).next_multiple_of(256));
        assert_eq!(b.bytes, 8320 * 999);
        assert_eq!(
            s.workspace_bytes(),
            (b.offset + b.bytes).next_multiple_of(256)
        );
        assert_eq!(s.tag(), "ab");
        // Aligned strides: nothing to pack unless a pointer asks for it.
        let p = tn(1024, 1024, 4096, None, None);
        assert_eq!(stride_misfits(&p), Which::NONE);
        assert!(hopper_packed(&p, &H200, Which::NONE).is_err());
        let s = hopper_packed(
            &p,
            &H200,
            Which {
                a: false,
                b: true,
                d: false,
            },
        )
        .unwrap()
        .pack
        .unwrap();
        assert_eq!((s.a, s.b.unwrap().ld, s.tag().as_str()), (None, 4096, "b"));
    }

    #[test]
    fn the_packed_problem_is_the_same_gemm_with_aligned_strides() {
        for (ta, tb) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            for row_major in [false, true] {
                let p = problem(
                    301,
                    203,
                    517,
                    (ta, tb),
                    row_major,
                    R_16F,
                    (None, None),
                    (1, None, None),
                );
                let s = spec(&p, Which::BOTH).unwrap();
                let q = packed_problem(&p, &s);
                assert_eq!((q.m, q.n, q.k, q.batch), (p.m, p.n, p.k, p.batch));
                assert_eq!(
                    (q.ab_type, q.cd_type, q.math),
                    (p.ab_type, p.cd_type, p.math)
                );
                assert_eq!((q.c, q.d, q.epilogue), (p.c, p.d, p.epilogue));
                assert_eq!(stride_misfits(&q), Which::NONE, "{ta}{tb} row={row_major}");
                // The storage order is kept: the unit stride stays on the same dimension.
                assert_eq!((q.a.row == 1, q.a.col == 1), (p.a.row == 1, p.a.col == 1));
                assert_eq!((q.b.row == 1, q.b.col == 1), (p.b.row == 1, p.b.col == 1));
                // The sm90 kernel takes it, reading the copies' leading dimensions.
                let v = sm90::choose(&q, &H200).expect("sm90 takes the packed problem");
                let (a, b) = (s.a.unwrap(), s.b.unwrap());
                assert_eq!(v.leading_dims(&q).unwrap(), (a.ld, b.ld));
                assert_eq!((v.major_a, v.major_b), (a.major, b.major));
                // Which dimension is contiguous follows the transposes and the order:
                // column-major op(A) = A (transa N) is M-major, A^T is K-major; row-major flips.
                let a_k_major = (ta == 1) != row_major;
                let b_k_major = (tb == 0) != row_major;
                assert_eq!(a.major == Major::K, a_k_major, "{ta}{tb} row={row_major}");
                assert_eq!(b.major == Major::K, b_k_major, "{ta}{tb} row={row_major}");
                let (a_inner, b_inner) = (
                    if a_k_major { 517 } else { 301 },
                    if b_k_major { 517 } else { 203 },
                );
                assert_eq!((a.inner, b.inner), (a_inner, b_inner));
                assert_eq!(a.inner * a.outer, 301 * 517);
                assert_eq!(b.inner * b.outer, 203 * 517);
                for o in [a, b] {
                    assert_eq!((o.ld as u64 * 2) % PACK_LINE_ALIGN, 0);
                    assert!(o.ld as u64 >= o.inner && (o.ld as u64 - o.inner) * 2 < 128);
                    assert_eq!(o.offset % PACK_BASE_ALIGN, 0);
                    assert_eq!(o.bytes, o.ld as u64 * o.outer * 2);
                }
                assert_eq!(q.extent[0], (a.outer - 1) * a.ld as u64 + a.inner);
            }
        }
    }

    #[test]
    fn batches_with_odd_or_zero_strides_are_packed_densely() {
        // Aligned leading dimensions (k = 256), batch stride of A one element past dense.
        let p = problem(
            128,
            64,
            256,
            (1, 0),
            false,
            R_16BF,
            (None, None),
            (3, Some(256 * 128 + 1), None),
        );
        assert_eq!(
            stride_misfits(&p),
            Which {
                a: true,
                b: false,
                d: false
            }
        );
        let s = hopper_packed(&p, &H200, Which::NONE).unwrap().pack.unwrap();
        let a = s.a.unwrap();
        assert_eq!((a.batch, a.src_batch_stride), (3, 256 * 128 + 1));
        assert_eq!((a.ld, a.batch_stride), (256, 256 * 128));
        assert_eq!(a.bytes, 256 * 128 * 3 * 2);
        let q = packed_problem(&p, &s);
        assert_eq!(q.a.batch, 256 * 128);
        assert_eq!(q.extent[0], 2 * 256 * 128 + 127 * 256 + 256);
        assert!(sm90::choose(&q, &H200).is_some());
        // A broadcast B (batch stride 0): TMA cannot, the copy repeats it per batch.
        let p = problem(
            128,
            64,
            256,
            (1, 0),
            false,
            R_16BF,
            (None, None),
            (4, None, Some(0)),
        );
        assert_eq!(
            stride_misfits(&p),
            Which {
                a: false,
                b: true,
                d: false
            }
        );
        let b = hopper_packed(&p, &H200, Which::NONE)
            .unwrap()
            .pack
            .unwrap()
            .b
            .unwrap();
        assert_eq!(
            (b.src_batch_stride, b.batch_stride, b.batch),
            (0, 256 * 64, 4)
        );
        assert_eq!(b.bytes, 4 * 256 * 64 * 2);
        // Unbatched: the caller's batch stride does not matter.
        let p = problem(
            128,
            64,
            256,
            (1, 0),
            false,
            R_16BF,
            (None, None),
            (1, Some(3), Some(5)),
        );
        assert_eq!(stride_misfits(&p), Which::NONE);
    }

    #[test]
    fn no_packed_plan_where_the_sm90_kernel_would_not_run_anyway() {
        let odd = |ab, ct| {
            let mut op = OpSpec::new(ct, R_32F);
            op.trans_a = 1;
            let a = MatrixSpec::col(ab, 333, 512, 333);
            let b = MatrixSpec::col(ab, 333, 512, 333);
            let c = MatrixSpec::col(ab, 512, 512, 512);
            GemmProblem::new(&op, &a, &b, &c, &c).unwrap()
        };
        assert!(hopper_packed(&odd(R_16BF, COMPUTE_32F), &H200, Which::NONE).is_ok());
        // Exact fp32 (no sm90 kernel), another architecture, k = 0; K-major tf32 has one.
        assert!(hopper_packed(&odd(R_32F, COMPUTE_32F), &H200, Which::NONE).is_err());
        assert!(hopper_packed(&odd(R_32F, COMPUTE_32F_FAST_TF32), &H200, Which::NONE).is_ok());
        assert!(hopper_packed(&odd(R_16BF, COMPUTE_32F), &DeviceSpec::A100, Which::NONE).is_err());
        let k0 = tn(64, 64, 0, Some(3), Some(3));
        assert!(hopper_packed(&k0, &H200, Which::BOTH).is_err());
    }

    #[test]
    fn packing_pays_only_for_large_enough_gemms() {
        // 4097³ bf16, both packed: ~135 MB copied (54 us + 6 us) + 229 us on the Hopper kernel
        // vs 2.3 ms portable.
        let big = tn(4097, 4097, 4097, None, None);
        let s = spec(&big, Which::BOTH).unwrap();
        let e = estimate(&big, &s);
        // (The second copy runs alongside the first: 1 us of launch, not 3, session 64.)
        assert!(
            (e.pack_s - (2.0 * (4097.0 * 4097.0 * 2.0 + 8320.0 * 4097.0) / 2.5e12 + 4e-6)).abs()
                < 1e-9
        );
        assert!(e.pays() && pays(&big, &s));
        // Around the break-even point of the model (n ~ 25 with both operands packed, their
        // copies overlapped; 64 where D's ld = n is off the 16-byte grid or n < 24:
        // `SHORT_D_S`): the portable kernel's walk through k and fixed cost (512³ ran 27.6 us
        // portable, 256³ 17.7, packed 12.0, session 33; 99³ 13.4 portable, 10.7 packed, `64c`;
        // 48x48x47 10.3 portable, 9.0 packed, `65a`, H100; but m of 10-63 with D's ld = m 1.0-1.2x
        // the portable time, `65b` / `65c`, H200).
        let sq = |n: u64| {
            let p = tn(n, n, n, Some(n as i64 + 1), Some(n as i64 + 1));
            pays(&p, &spec(&p, Which::BOTH).unwrap())
        };
        assert!(!sq(16) && sq(32) && sq(48) && !sq(49) && !sq(63) && sq(64) && sq(65) && sq(1000));
        // D aligned (ld = m, a multiple of 8): under 24 rows charged too (`SHORT_D_STORED_ROWS`).
        let rows = |m: u64| {
            let p = tn(m, 300, 45, None, None);
            pays(&p, &spec(&p, Which::BOTH).unwrap())
        };
        assert!(!rows(8) && !rows(16) && rows(24) && rows(56) && !rows(57) && rows(64));
        // Skinny: lots of bytes, few flops, but one portable tile walks k = 2^20 alone (~42 ms
        // against ~60 us of copies).
        let skinny = tn(16, 16, 1 << 20, Some((1 << 20) + 1), Some((1 << 20) + 1));
        let e = estimate(&skinny, &spec(&skinny, Which::BOTH).unwrap());
        assert!(e.pays() && e.portable_s > 0.04 && e.pack_s < 1e-4);
        // A decode GEMM with an odd-ld operand: one wave of tiles through k = 4096.
        let decode = tn(16, 4096, 4096, Some(4097), None);
        let e = estimate(&decode, &spec(&decode, Which::BOTH).unwrap());
        assert!(e.pays() && (e.portable_s - 4096.0 * PORTABLE_K_S - PORTABLE_FIXED_S).abs() < 1e-9);
        // Packing one operand costs less than packing two.
        let p = tn(96, 96, 24, None, None);
        let one = estimate(
            &p,
            &spec(
                &p,
                Which {
                    a: true,
                    b: false,
                    d: false,
                },
            )
            .unwrap(),
        );
        let two = estimate(&p, &spec(&p, Which::BOTH).unwrap());
        assert!(one.pack_s < two.pack_s && one.pays() && !two.pays());
    }

    #[test]
    fn candidates_put_the_packed_plan_first_only_when_it_pays() {
        let big = tn(2048, 2048, 4097, None, None);
        let c = candidates(&big, &H200).unwrap();
        assert!(c.len() >= 2);
        assert!(matches!(c[0].kernel, Kernel::Sm90(_)) && c[0].pack.is_some());
        assert!(c[0].workspace > 0 && c[0].name().contains("+pack_ab"));
        assert_eq!(*c.last().unwrap(), portable(&big, &H200).unwrap());
        // Then the same work in blocks (plan::slab), for smaller workspaces.
        assert!(
            c[..c.len() - 1]
                .iter()
                .all(|p| p.pack.is_some() || p.is_slabbed())
        );
        assert!(c.iter().any(|p| p.is_slabbed()));
        let small = tn(16, 16, 17, None, None);
        let c = candidates(&small, &H200).unwrap();
        assert!(c.len() >= 2);
        assert!(matches!(c[0].kernel, Kernel::Portable(_)));
        assert!(
            c[1..].iter().all(|p| p.pack.is_some()),
            "still offered, after"
        );
        // Aligned strides: the direct plan, no packing, no workspace.
        let c = candidates(&tn(2048, 2048, 4096, None, None), &H200).unwrap();
        assert!(c[0].pack.is_none() && c[0].workspace == 0);
        assert!(c.iter().all(|p| p.pack.is_none()));
    }

    #[test]
    fn the_call_takes_the_packed_plan_when_the_workspace_holds_it() {
        let aligned = (0x1000_0000, 0x2000_0000);
        let big = tn(2048, 2048, 4097, None, None);
        let packed = candidates(&big, &H200).unwrap()[0];
        let need = packed.workspace;
        assert_eq!(need, (8320u64 * 2048).next_multiple_of(256) + 8320 * 2048);
        let at = |ws: u64, a: u64, b: u64| choose_for_call(&big, &H200, &ptrs(a, b), ws).unwrap();
        assert_eq!(at(need, aligned.0, aligned.1), packed);
        assert_eq!(
            at(need + 1, aligned.0 + 2, aligned.1 + 6),
            packed,
            "both packed anyway"
        );
        // Less: the same in blocks whose copies fit (plan::slab), or none at all: portable.
        let blocks = at(need - 1, aligned.0, aligned.1);
        assert!(
            blocks.is_slabbed() && blocks.workspace < need,
            "{}",
            blocks.name()
        );
        let fallback = at(1 << 20, aligned.0, aligned.1);
        assert!(matches!(fallback.kernel, Kernel::Portable(_)));
        assert!(matches!(
            at(0, aligned.0, aligned.1).kernel,
            Kernel::Portable(_)
        ));

        // Aligned strides, misaligned pointers: pack just the misaligned operand(s).
        let p = tn(2048, 2048, 4096, None, None);
        let direct = candidates(&p, &H200).unwrap()[0];
        let call = |ws: u64, a: u64, b: u64| choose_for_call(&p, &H200, &ptrs(a, b), ws).unwrap();
        assert_eq!(call(0, aligned.0, aligned.1), direct);
        assert_eq!(
            call(1 << 30, aligned.0, aligned.1),
            direct,
            "no packing when aligned"
        );
        let a_only = call(1 << 30, aligned.0 + 2, aligned.1);
        assert_eq!(a_only.pack.unwrap().tag(), "a");
        assert_eq!(a_only.workspace, 8192 * 2048, "2048 lines of 4096 bf16");
        assert_eq!(
            a_only.kernel, direct.kernel,
            "same sm90 variant on the copy"
        );
        assert!(a_only.accepts(&p, &ptrs(aligned.0 + 2, aligned.1)));
        assert!(!a_only.accepts(&p, &ptrs(aligned.0 + 2, aligned.1 + 8)));
        let b_only = call(1 << 30, aligned.0, aligned.1 + 8);
        assert_eq!(b_only.pack.unwrap().tag(), "b");
        assert_eq!(
            b_only.pack.unwrap().b.unwrap().offset,
            0,
            "B alone starts the workspace"
        );
        let both = call(1 << 30, aligned.0 + 4, aligned.1 + 8);
        assert_eq!(both.pack.unwrap().tag(), "ab");
        // Too little workspace for the copies: blocks of rows, each packing its rows of A
        // (plan::slab, as for an odd leading dimension); with none, the portable kernel.
        let short = call(8192 * 2048 - 256, aligned.0 + 2, aligned.1);
        assert!(
            short.is_slabbed() && short.slabs[1] == 1 && short.workspace < 8192 * 2048,
            "{}",
            short.name()
        );
        assert!(short.accepts(&p, &ptrs(aligned.0 + 2, aligned.1)));
        let none = call(0, aligned.0 + 2, aligned.1);
        assert!(matches!(none.kernel, Kernel::Portable(_)));
        // B misaligned: blocks of columns.
        let cols = call(8192 * 2048 - 256, aligned.0, aligned.1 + 8);
        assert!(cols.is_slabbed() && cols.slabs[0] == 1, "{}", cols.name());
        // Too small to pay: portable even with workspace; a D of 96 x 96 pays for one copy
        // however short its k (the portable kernel's floor is the higher, session 65), not for
        // two there.
        let tiny = tn(15, 16, 16, None, None);
        let t = choose_for_call(&tiny, &H200, &ptrs(aligned.0 + 2, aligned.1), 1 << 30);
        assert!(matches!(t.unwrap().kernel, Kernel::Portable(_)));
        let short = tn(96, 96, 16, None, None);
        let one = choose_for_call(&short, &H200, &ptrs(aligned.0 + 2, aligned.1), 1 << 30);
        assert_eq!(one.unwrap().pack.unwrap().tag(), "a");
        let two = choose_for_call(&short, &H200, &ptrs(aligned.0 + 2, aligned.1 + 2), 1 << 30);
        assert!(matches!(two.unwrap().kernel, Kernel::Portable(_)));
        // A stride-packed plan (A) whose B pointer is misaligned packs B as well.
        let odd_a = tn(2048, 2048, 4097, None, Some(4104));
        let pl = choose_for_call(&odd_a, &H200, &ptrs(aligned.0, aligned.1 + 2), 1 << 30).unwrap();
        assert_eq!(pl.pack.unwrap().tag(), "ab");
    }

    #[test]
    fn packed_and_direct_plans_encode_to_different_algos() {
        let p = tn(2048, 2048, 4096, None, None);
        let direct = candidates(&p, &H200).unwrap()[0];
        let packed = hopper_packed(&p, &H200, Which::BOTH).unwrap();
        assert_eq!(packed.kernel, direct.kernel);
        assert_eq!(packed.grid, direct.grid);
        assert_ne!(packed.to_algo(), direct.to_algo());
        assert_ne!(packed.name(), direct.name());
        // A packed candidate round-trips through its algo.
        let odd = tn(2048, 2048, 4097, None, None);
        let c = candidates(&odd, &H200).unwrap();
        assert_eq!(Plan::from_algo(&c[0].to_algo(), &odd, &H200).unwrap(), c[0]);
    }

    #[test]
    fn workspace_pointers_and_acceptance() {
        let p = tn(512, 512, 4097, None, None);
        let s = spec(&p, Which::BOTH).unwrap();
        let caller = ptrs(0x1000_0002, 0x2000_0006);
        let q = packed_pointers(&caller, &s, 0x7000_0000);
        assert_eq!(q.a, 0x7000_0000);
        assert_eq!(q.b, 0x7000_0000 + s.b.unwrap().offset);
        assert_eq!(
            (q.c, q.d, q.alpha, q.beta),
            (caller.c, caller.d, caller.alpha, caller.beta)
        );
        assert!(sm90::Sm90Variant::pointers_fit(&q));
        assert!(accepts(Some(&s), &caller));
        assert!(!accepts(None, &caller));
        assert!(accepts(None, &ptrs(0x1000, 0x2000)));
        let d = describe(&p, &caller, &s);
        assert!(d.contains("A (leading dimension 4097"), "{d}");
        assert!(d.contains("ld 4097 -> 4160"), "{d}");
        let aligned = tn(512, 512, 4096, None, None);
        let s = spec(
            &aligned,
            Which {
                a: true,
                b: false,
                d: false,
            },
        )
        .unwrap();
        let d = describe(&aligned, &caller, &s);
        assert!(
            d.contains("base address 0x10000002 is not 16-byte aligned"),
            "{d}"
        );
    }

    #[test]
    fn pack_variants_are_named_by_their_configuration_and_size_their_grid() {
        let all = PackVariant::all();
        assert_eq!(all.len(), 3);
        assert_eq!(all[0].name(), "dg_pack_b16_t256_c4_u4_p4");
        assert_eq!(all[1].name(), "dg_pack_b32_t256_c4_u4_p4");
        assert_eq!(all[2].name(), "dg_packt_b32_t256_c4");
        assert!(PackVariant::for_elem(8).is_none());
        assert!(PackVariant::transposing(2).is_none());
        let v = all[0];
        assert_eq!((v.pass(), v.max_segment()), (128, 512));
        assert!(v.runs_on(&H200) && v.runs_on(&DeviceSpec::T4));
        let p = tn(4096, 64, 4097, None, None);
        let a = spec(&p, Which::BOTH).unwrap().a.unwrap();
        // 4160-element lines: 520 chunks of 16 bytes, 2 items of 288 (the second gets 232);
        // 4096 lines; 8 warps a CTA; capped at 132 SMs x 4 CTAs.
        assert_eq!(
            v.pack_split(&a),
            PackSplit {
                segments: 2,
                segment: 288
            }
        );
        assert_eq!(v.segments(&a), 2);
        assert_eq!(v.grid(&a, &H200), 132 * 4);
        let small = tn(8, 8, 9, None, None);
        let b = spec(&small, Which::BOTH).unwrap().b.unwrap();
        assert_eq!((b.ld, v.segments(&b)), (64, 1));
        assert_eq!(v.grid(&b, &H200), 1, "8 lines, one warp each");
        // 4096 lines of 512 chunks (ld 4096): one item each, 512 CTAs; the copy back into a
        // misaligned D has 513-chunk lines, two items each: the grid covers those (still
        // capped).
        let aligned = tn(4096, 64, 4096, Some(4096), None);
        let o = spec(&aligned, Which::BOTH).unwrap().a.unwrap();
        assert_eq!((o.ld, v.segments(&o)), (4096, 1));
        assert_eq!(v.split(v.line_chunks(4096, 14)).segments, 2);
        assert_eq!(v.grid(&o, &H200), 132 * 4);
        let few = tn(16, 64, 4096, Some(4096), None);
        let o = spec(&few, Which::BOTH).unwrap().a.unwrap();
        assert_eq!(v.grid(&o, &H200), 4, "16 lines x 2 items / 8 warps");
        // The transposing form: a CTA a 64 x 64 tile of the copy, its padding included,
        // capped at a wave.
        let t = all[2];
        let nt = |m: u64, n: u64, k: u64, batch: i32| {
            problem(
                m,
                n,
                k,
                (0, 1),
                false,
                R_32F,
                (None, None),
                (batch, None, None),
            )
        };
        let q = tf32(nt(100, 200, 1000, 3));
        let b = spec(&q, Which::BOTH).unwrap().b.unwrap();
        assert_eq!(PackVariant::for_operand(&b), Some(t));
        // 1000 of k padded to 1024 (4 KB lines): 16 tiles along a line, 4 across 200 lines.
        assert_eq!((b.ld, b.outer, b.inner), (1024, 200, 1000));
        assert_eq!(t.transpose_tiles(&b), 16 * 4 * 3);
        assert_eq!(t.grid(&b, &H200), 192);
        let big = tf32(nt(64, 4096, 4096, 1));
        let b = spec(&big, Which::BOTH).unwrap().b.unwrap();
        assert_eq!(t.grid(&b, &H200), 132 * 4);
        // A is never transposed (M-major A goes through registers): its plain copy.
        let a = spec(&q, Which::BOTH).unwrap().a.unwrap();
        assert!(!a.transposed);
        assert_eq!(PackVariant::for_operand(&a), PackVariant::for_elem(4));
    }

    /// `p` with tf32 math (COMPUTE_32F_FAST_TF32 on fp32 inputs).
    fn tf32(mut p: GemmProblem) -> GemmProblem {
        p.math = crate::types::Math::MmaTf32;
        p
    }

    /// An N-major B under tf32 math is copied K-major: the copy's lines run along k, the
    /// problem the kernel sees reads B K-major from the workspace, and every element lands at
    /// the copy's (n, k) place; a K-major B, or an N-major one without tf32, keeps its order.
    #[test]
    fn tf32_n_major_b_is_copied_transposed() {
        let nt = problem(
            300,
            200,
            1001,
            (0, 1),
            false,
            R_32F,
            (Some(301), Some(203)),
            (2, None, None),
        );
        let q = tf32(nt);
        assert!(needs_transpose(&q, Operand::B) && !needs_transpose(&q, Operand::A));
        assert!(
            !needs_transpose(&nt, Operand::B),
            "fp32 without tf32: the FFMA kernel"
        );
        assert!(
            stride_misfit(&q, Operand::B)
                .unwrap()
                .contains("K-major only")
        );
        // A's odd leading dimension (301 x 4 bytes) is TMA's misfit: its plain copy.
        assert_eq!(stride_misfits(&q), Which::BOTH);
        let s = spec(&q, stride_misfits(&q)).unwrap();
        assert!(s.a.is_some_and(|a| !a.transposed && a.major == Major::MN));
        let b = s.b.unwrap();
        assert!(b.transposed);
        assert_eq!(b.major, Major::K);
        // The copy: 200 lines of k (1001 -> 1024 elements, 4 KB), dense batches; the source:
        // 1001 lines of n, 203 apart.
        assert_eq!((b.inner, b.outer, b.batch), (1001, 200, 2));
        assert_eq!((b.ld, b.batch_stride, b.src_ld), (1024, 1024 * 200, 203));
        assert_eq!(b.src_batch_stride, q.b.batch);
        assert_eq!(b.bytes, 1024 * 200 * 2 * 4);
        let k = packed_problem(&q, &s);
        assert_eq!((k.b.row, k.b.col, k.b.batch), (1, 1024, 1024 * 200));
        assert!(
            sm90::Sm90Variant::all().iter().any(|v| v.check(&k).is_ok()),
            "the tf32 NN kernel takes the packed problem"
        );
        // The transposed copy is charged at its own rate (`TRANSPOSE_BYTES_PER_S`).
        let plain = PackedOperand {
            transposed: false,
            ..b
        };
        assert!(copy_s(&b) > copy_s(&plain));
        // TN / NN keep B as it is.
        for ta in [0, 1] {
            let kb = tf32(problem(
                300,
                200,
                1024,
                (ta, 0),
                false,
                R_32F,
                (None, None),
                (1, None, None),
            ));
            assert!(!needs_transpose(&kb, Operand::B));
            assert_eq!(stride_misfits(&kb), Which::NONE);
        }
        // Row-major storage: NT's B row-major is K-major (no copy).
        let row = tf32(problem(
            300,
            200,
            1001,
            (0, 1),
            true,
            R_32F,
            (None, None),
            (1, None, None),
        ));
        assert_eq!(row.b.row, 1, "op(B) = B^T, k x n, unit stride along k");
        assert!(!needs_transpose(&row, Operand::B));
    }

    /// The host's half of the kernel's work split: chunks per line, the worst line offset,
    /// and items that cover every chunk of every line once, none of them empty.
    #[test]
    fn pack_items_cover_every_chunk_of_every_line_once() {
        let v = PackVariant::for_elem(2).unwrap();
        let f = PackVariant::for_elem(4).unwrap();
        // Lines of `write` elements `offset` bytes past a 16-byte boundary.
        assert_eq!(v.line_chunks(4160, 0), 520);
        assert_eq!(v.line_chunks(4097, 0), 513);
        assert_eq!(v.line_chunks(4096, 0), 512);
        assert_eq!(v.line_chunks(4096, 2), 513);
        assert_eq!(v.line_chunks(1, 14), 1);
        assert_eq!(v.line_chunks(2, 14), 2);
        assert_eq!(f.line_chunks(4, 0), 1);
        assert_eq!(f.line_chunks(4, 4), 2);
        assert_eq!(f.line_chunks(1, 12), 1);
        // Offsets reachable from base + (b * bs + row * ld) * elem_bytes.
        assert_eq!(v.max_line_offset(0x1000, 4160, 4160 * 300, 300, 2), 0);
        assert_eq!(v.max_line_offset(0x1002, 4160, 4160 * 300, 300, 2), 2);
        assert_eq!(v.max_line_offset(0x1002, 4097, 4160 * 300, 300, 2), 14);
        assert_eq!(
            v.max_line_offset(0x1002, 4100, 4160 * 300, 300, 1),
            10,
            "2 + 8k"
        );
        assert_eq!(
            v.max_line_offset(0x1002, 4100, 4160, 1, 3),
            2,
            "bs * 2 = 0 mod 16"
        );
        assert_eq!(v.max_line_offset(0x1006, 4097, 0, 1, 1), 6, "a single line");
        assert_eq!(
            v.max_line_offset(0x1000, 0, -3, 1, 2),
            14,
            "negative strides"
        );
        assert_eq!(f.max_line_offset(0x1004, 4098, 0, 7, 1), 12, "4 + 8k");
        assert_eq!(f.max_line_offset(0x1000, 4097, 0, 7, 1), 12);
        // The split: fewest items of at most 512 chunks, equal multiples of 32.
        for (chunks, segments, segment) in [
            (0, 1, 32),
            (1, 1, 32),
            (32, 1, 32),
            (33, 1, 64),
            (512, 1, 512),
            (513, 2, 288),
            (520, 2, 288),
            (1024, 2, 512),
            (1025, 3, 352),
        ] {
            assert_eq!(
                v.split(chunks),
                PackSplit { segments, segment },
                "{chunks} chunks"
            );
        }
        for chunks in 1..20_000u64 {
            let s = v.split(chunks);
            assert!(
                s.segment % 32 == 0 && s.segment <= v.max_segment(),
                "{chunks}"
            );
            // The kernel's items [k * segment, (k + 1) * segment) clipped to the line:
            // together exactly [0, chunks), the last one not empty.
            assert!(s.segments * s.segment >= chunks, "{chunks}: not covered");
            assert!(
                (s.segments - 1) * s.segment < chunks,
                "{chunks}: an empty item"
            );
        }
    }

    #[test]
    fn pointers_off_the_grid_misfit() {
        let ptrs = |a, b| GemmPointers {
            a,
            b,
            ..crate::problem::aligned_ptrs()
        };
        let ab = Which {
            a: true,
            b: true,
            d: false,
        };
        assert_eq!(pointer_misfits(&ptrs(0x1_0006, 0x2_0002)), ab);
        assert_eq!(pointer_misfits(&ptrs(0x1_0000, 0x2_0010)), Which::NONE);
        assert!(pointer_misfits(&ptrs(0x1_0008, 0x2_0000)).a);
        assert!(accepts(None, &ptrs(0x1_0000, 0x2_0000)));
        assert!(!accepts(None, &ptrs(0x1_0006, 0x2_0000)));
    }
}
