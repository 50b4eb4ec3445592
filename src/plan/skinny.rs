//! The skinny kernel (kernels/skinny/skinny.cuh): decode's GEMMs, one output side of at most
//! 16 and the other large, whose time is the read of the large operand (the weights). Tensor
//! cores through mma.sync (sm_80+), both operands K-major, each thread streaming its own
//! 16-byte pieces through a cp.async ring: no tensor maps, no tiles of 128 rows half empty.
//!
//! The kernel computes a problem whose n is the small side; a problem whose m is small runs
//! transposed (`Plan::swap`, the bias then along n).

use super::{DeviceSpec, Kernel, Plan, streamk};
use crate::problem::GemmProblem;
use crate::types::{Math, ScalarType};

/// Warps of a CTA; they split k.
pub const WARPS: u32 = 8;
/// Shared memory a CTA's ring aims at: two CTAs an SM; the bulk form one CTA an SM.
const RING_BUDGET: u32 = 96 * 1024;
const BULK_RING_BUDGET: u32 = 200 * 1024;

/// `RING_BUDGET`, or `DEEPGEMM_SKINNY_RING_KIB` (measurements: deeper or shallower rings).
fn ring_budget() -> u32 {
    static B: once_cell::sync::Lazy<u32> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_SKINNY_RING_KIB")
            .ok()
            .and_then(|v| v.trim().parse::<u32>().ok())
            .map_or(RING_BUDGET, |k| k.clamp(16, 220) * 1024)
    });
    *B
}
/// The widest small side.
pub const MAX_COLS: u64 = 16;

/// One compiled skinny kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SkinnyVariant {
    pub ab: ScalarType,
    pub cd: ScalarType,
    /// Rows of D a CTA (16 or 32).
    pub rows: u32,
    /// Columns of D a CTA covers (8 or 16): n at most this.
    pub cols: u32,
    /// The Hopper form (kernels/skinny/bulk.cuh): rows copied by the TMA engine's bulk copies,
    /// a producer warp and a persistent grid; else per-thread cp.async (sm_80+).
    pub bulk: bool,
}

impl SkinnyVariant {
    /// Entry symbol, cache-key prefix and log label, derived from the configuration.
    pub fn name(&self) -> String {
        format!(
            "dg_skinny_{}_{}_r{}c{}_w{}_s{}{}",
            self.ab.tag(),
            self.cd.tag(),
            self.rows,
            self.cols,
            WARPS,
            self.stages(),
            if self.bulk {
                format!("_bulk{}", self.chunks())
            } else {
                String::new()
            }
        )
    }

    /// Every variant the library can launch (CI compiles each).
    pub fn all() -> Vec<SkinnyVariant> {
        let mut v = Vec::new();
        for ab in [ScalarType::BF16, ScalarType::F16] {
            for cd in [ab, ScalarType::F32] {
                for rows in [16, 32] {
                    for cols in [8, 16] {
                        for bulk in [false, true] {
                            v.push(SkinnyVariant {
                                ab,
                                cd,
                                rows,
                                cols,
                                bulk,
                            });
                        }
                    }
                }
            }
        }
        v
    }

    /// The consumer warps, plus the bulk form's producer warp.
    pub fn threads(&self) -> u32 {
        (WARPS + self.bulk as u32) * 32
    }

    /// A thread's 16-byte pieces a chunk of 32 k (kernels/skinny/skinny.cuh `Shape::kVecs`).
    fn vecs(&self) -> u32 {
        2 * (self.rows / 16) + self.cols / 8
    }

    /// The bulk form's chunks of 32 k a warp and stage: a row's copy 2 KiB with 16 rows a CTA,
    /// 1 KiB with 32 (the stage's A 32 KiB either way).
    pub fn chunks(&self) -> u32 {
        static FORCED: once_cell::sync::Lazy<Option<u32>> = once_cell::sync::Lazy::new(|| {
            // DEEPGEMM_SKINNY_CHUNKS (1, 2, 4 or 8): measurements of the copy size.
            std::env::var("DEEPGEMM_SKINNY_CHUNKS")
                .ok()
                .and_then(|v| v.trim().parse::<u32>().ok())
                .filter(|c| [1, 2, 4, 8].contains(c))
        });
        FORCED.unwrap_or(if self.rows >= 32 { 2 } else { 4 })
    }

    /// Bytes of one ring stage: every consumer thread's pieces, or (bulk) the CTA's rows and
    /// columns as lines of WARPS * chunks * 32 elements plus 16 bytes (kernels/skinny/bulk.cuh
    /// `BulkShape`).
    fn stage_bytes(&self) -> u32 {
        if self.bulk {
            (self.rows + self.cols) * (WARPS * self.chunks() * 32 * 2 + 16)
        } else {
            WARPS * 32 * self.vecs() * 16
        }
    }

    /// Ring stages: as many as fit the budget, 2 to 16.
    pub fn stages(&self) -> u32 {
        let budget = if self.bulk {
            BULK_RING_BUDGET
        } else {
            ring_budget()
        };
        (budget / self.stage_bytes()).clamp(2, 16)
    }

    /// CTAs an SM the launch bounds ask for.
    pub fn ctas_per_sm(&self) -> u32 {
        if self.bulk { 1 } else { 2 }
    }

    /// The warps' partial tiles, added at the end.
    fn reduce_bytes(&self) -> u32 {
        WARPS * self.rows * self.cols * 4
    }

    /// Dynamic shared memory: the ring, or the warps' partial tiles if larger; the bulk form
    /// keeps both (its producer fills the next item's stages meanwhile) and its barriers.
    pub fn smem_bytes(&self) -> u32 {
        let ring = self.stages() * self.stage_bytes();
        if self.bulk {
            ring + self.reduce_bytes() + 2 * self.stages() * 8
        } else {
            ring.max(self.reduce_bytes())
        }
    }

    pub fn runs_on(&self, dev: &DeviceSpec) -> bool {
        let arch = if self.bulk {
            dev.cc_major >= 9
        } else {
            dev.has_mma_sync()
        };
        arch && self.smem_bytes() <= dev.smem_per_block
    }
}

/// `DEEPGEMM_SKINNY`: `1` plans the skinny kernel first wherever it takes the problem (tests,
/// measurements), `auto` where its CTAs are at least half the SMs; unset or `0`: never (session
/// 42: its per-thread copies streamed at ~2 TB/s, 1.4-2.2x the tile plans' time on all but the
/// smallest decode shapes; BENCHMARKS.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Never,
    Forced,
    Auto,
}

pub fn mode() -> Mode {
    static M: once_cell::sync::Lazy<Mode> = once_cell::sync::Lazy::new(|| {
        match std::env::var("DEEPGEMM_SKINNY").as_deref().map(str::trim) {
            Ok("1") => Mode::Forced,
            Ok("auto") => Mode::Auto,
            _ => Mode::Never,
        }
    });
    *M
}

/// Whether the kernel computes `p` as it is (n the small side): 16-bit in, mma math, n at most
/// 16, both operands K-major with 16-byte lines (leading dimensions and batch strides in
/// multiples of 8 elements where more than one line is read), k a multiple of 8. The pointers'
/// alignment is checked per call (`accepts`).
pub fn takes(p: &GemmProblem) -> bool {
    let sixteen = |stride: i64, used: bool| !used || stride.rem_euclid(8) == 0;
    matches!(p.ab_type, ScalarType::BF16 | ScalarType::F16)
        && p.math == Math::Mma
        && p.n >= 1
        && p.n <= MAX_COLS
        && p.m >= 1
        && p.k % 8 == 0
        && p.a.col == 1
        && p.b.row == 1
        && sixteen(p.a.row, p.m > 1)
        && sixteen(p.b.col, p.n > 1)
        && sixteen(p.a.batch, p.batch > 1)
        && sixteen(p.b.batch, p.batch > 1)
}

/// A and B 16-byte aligned: each thread's copies are 16-byte units.
pub fn accepts(a: u64, b: u64) -> bool {
    a % 16 == 0 && b % 16 == 0
}

/// The variant for `p` (which `takes`) on `dev`: the narrowest column count that holds n, and
/// 32 rows a CTA where that still gives two CTAs an SM (half the reads of B a row), else 16.
pub fn variant(p: &GemmProblem, dev: &DeviceSpec) -> SkinnyVariant {
    let cols = if p.n <= 8 { 8 } else { 16 };
    let sms = dev.sm_count.max(1) as u64;
    // The bulk form: 16 rows, each row's copy 2 KiB (32 rows with 1 KiB copies ran 1.3-1.8x
    // slower in `42e`; with 2 KiB only two stages would fit).
    // Only where its ~200 KiB ring fits a block: not on the 99 KiB parts (sm_120, RTX 50),
    // which take the cp.async form (a review found them refused the kernel altogether).
    let bulk_form = SkinnyVariant {
        ab: p.ab_type,
        cd: p.cd_type,
        rows: 16,
        cols,
        bulk: true,
    };
    let bulk = bulk_allowed() && bulk_form.runs_on(dev);
    let rows = if !bulk && p.m.div_ceil(32) * p.batch >= 2 * sms {
        32
    } else {
        16
    };
    SkinnyVariant {
        rows,
        bulk,
        ..bulk_form
    }
}

/// `DEEPGEMM_SKINNY_BULK=0` keeps the cp.async form on Hopper too (measurements).
fn bulk_allowed() -> bool {
    static B: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_SKINNY_BULK").map_or(true, |v| v.trim() != "0")
    });
    *B
}

/// The kernel's grid: one CTA a block of rows and batch, at most 8 an SM (the kernel loops
/// over the rest); the bulk form is persistent, one CTA an SM; on a share of the SMs
/// (`DeviceSpec::partial`) one CTA an SM of the share.
pub fn grid(v: &SkinnyVariant, p: &GemmProblem, dev: &DeviceSpec) -> u32 {
    let work = p.m.div_ceil(v.rows as u64) * p.batch;
    let per_sm = dev.ctas_per_sm(if v.bulk { 1 } else { 8 }) as u64;
    work.clamp(1, per_sm * dev.sm_count.max(1) as u64) as u32
}

/// What the plan is estimated to take: the bytes read and written at 4 TB/s, or at the share of
/// it its CTAs reach when they are fewer than the SMs, plus a launch's fixed ~3 us.
fn estimate_ns(v: &SkinnyVariant, p: &GemmProblem, dev: &DeviceSpec) -> u64 {
    let ab = p.ab_type.size_bytes() as f64;
    let cd = p.cd_type.size_bytes() as f64;
    let (m, n, k, batch) = (p.m as f64, p.n as f64, p.k as f64, p.batch as f64);
    let bytes = batch * (ab * k * (m + n) + cd * m * n);
    let ctas = (p.m.div_ceil(v.rows as u64) * p.batch) as f64;
    let share = (ctas / dev.sm_count.max(1) as f64).min(1.0);
    (3_000.0 + bytes / (4.0e12 * share) * 1e9) as u64
}

/// The skinny plan for `p` on `dev`, computed as is or transposed (whichever puts a side of at
/// most 16 in n), if the kernel takes it and, unless forced, its CTAs (blocks of 16 rows) are
/// at least half the SMs: with fewer, the split plans spread the reads wider.
pub fn plan(p: &GemmProblem, dev: &DeviceSpec) -> Option<Plan> {
    plan_with(p, dev, mode())
}

/// `plan` under `mode` (tests: whatever the environment says).
pub fn plan_with(p: &GemmProblem, dev: &DeviceSpec, mode: Mode) -> Option<Plan> {
    if mode == Mode::Never || !dev.has_mma_sync() {
        return None;
    }
    let t = p.transposed();
    let (q, swap) = if takes(p) && (p.n <= p.m || !takes(&t)) {
        (*p, false)
    } else if takes(&t) {
        (t, true)
    } else {
        return None;
    };
    let sms = dev.sm_count.max(1) as u64;
    if mode == Mode::Auto && q.m.div_ceil(16) * q.batch < sms.div_ceil(2) {
        return None;
    }
    let v = variant(&q, dev);
    if !v.runs_on(dev) {
        return None;
    }
    Some(Plan {
        kernel: Kernel::Skinny(v),
        grid: [grid(&v, &q, dev), 1, 1],
        block: v.threads(),
        workspace: 0,
        decomposition: streamk::Decomposition::default(),
        estimate_ns: estimate_ns(&v, &q, dev),
        pack: None,
        swap,
        slabs: [1, 1],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{MatrixSpec, OpSpec};
    use crate::types::{compute_type::*, cuda_data_type::*};

    /// D (m x n) = A^T B with A stored k x m and B k x n, column-major (TN: both K-major).
    fn tn(m: u64, n: u64, k: u64, ab: i32, cd: i32) -> GemmProblem {
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = 1;
        let a = MatrixSpec::col(ab, k, m, k as i64);
        let b = MatrixSpec::col(ab, k, n, k as i64);
        let c = MatrixSpec::col(cd, m, n, m as i64);
        GemmProblem::new(&op, &a, &b, &c, &c).unwrap()
    }

    #[test]
    fn names_follow_the_configuration_and_are_distinct() {
        let all = SkinnyVariant::all();
        let names: std::collections::HashSet<String> = all.iter().map(|v| v.name()).collect();
        assert_eq!(names.len(), all.len());
        let mut v = SkinnyVariant {
            ab: ScalarType::BF16,
            cd: ScalarType::BF16,
            rows: 16,
            cols: 8,
            bulk: false,
        };
        assert_eq!(v.name(), "dg_skinny_bf16_bf16_r16c8_w8_s8");
        v.bulk = true;
        assert_eq!(v.name(), "dg_skinny_bf16_bf16_r16c8_w8_s4_bulk4");
        assert_eq!(
            (v.threads(), v.smem_bytes()),
            (288, 4 * 24 * 2064 + 4096 + 64)
        );
        for v in all {
            assert!(v.runs_on(&DeviceSpec::H200) && !v.runs_on(&DeviceSpec::T4));
            assert_eq!(v.runs_on(&DeviceSpec::A100), !v.bulk);
            // The CTAs an SM its launch bounds ask for.
            assert!(
                v.ctas_per_sm() * (v.smem_bytes() + 1024) <= 228 * 1024,
                "{}",
                v.name()
            );
            assert!(v.stages() >= 3, "{}", v.name());
        }
    }

    #[test]
    fn decode_shapes_run_skinny_either_way_round() {
        let dev = DeviceSpec::H200;
        // n small: as is.
        let p = plan_with(&tn(4096, 1, 4096, R_16BF, R_16BF), &dev, Mode::Auto).unwrap();
        assert!(!p.swap && p.block == 288);
        let Kernel::Skinny(v) = p.kernel else {
            panic!()
        };
        assert_eq!((v.rows, v.cols, v.bulk), (16, 8, true));
        assert!(!variant(&tn(4096, 1, 4096, R_16BF, R_16BF), &DeviceSpec::A100).bulk);
        // A 99 KiB part (sm_120) takes the cp.async form, which fits; a B200 the bulk one.
        let rtx50 = DeviceSpec {
            cc_major: 12,
            cc_minor: 0,
            sm_count: 84,
            smem_per_block: 101_376,
            partial: false,
        };
        let p = plan_with(&tn(4096, 1, 4096, R_16BF, R_16BF), &rtx50, Mode::Forced).unwrap();
        let Kernel::Skinny(v) = p.kernel else {
            panic!()
        };
        assert!(!v.bulk && v.runs_on(&rtx50));
        let b200 = DeviceSpec::B200;
        assert!(variant(&tn(4096, 1, 4096, R_16BF, R_16BF), &b200).bulk);
        // m small: transposed, the 16 columns variant; on Hopper 16 rows (bulk), persistent;
        // without bulk copies 32 rows where there are 2+ CTAs an SM.
        let p = plan_with(&tn(16, 28672, 8192, R_16BF, R_16BF), &dev, Mode::Auto).unwrap();
        assert!(p.swap);
        let Kernel::Skinny(v) = p.kernel else {
            panic!()
        };
        assert_eq!((v.rows, v.cols), (16, 16));
        assert_eq!(p.grid[0], 132);
        let a100 = variant(
            &tn(16, 28672, 8192, R_16BF, R_16BF).transposed(),
            &DeviceSpec::A100,
        );
        assert_eq!((a100.rows, a100.cols, a100.bulk), (32, 16, false));
        // fp16 in, fp32 out.
        let p = plan_with(&tn(9, 2112, 7168, R_16F, R_32F), &dev, Mode::Auto).unwrap();
        assert!(plan_with(&tn(9, 2112, 7168, R_16F, R_32F), &dev, Mode::Never).is_none());
        // Forced: even where its CTAs are few.
        assert!(plan_with(&tn(1, 1024, 4096, R_16BF, R_16BF), &dev, Mode::Forced).is_some());
        let Kernel::Skinny(v) = p.kernel else {
            panic!()
        };
        assert_eq!((v.ab, v.cd, v.cols), (ScalarType::F16, ScalarType::F32, 16));
    }

    #[test]
    fn what_it_does_not_take() {
        let dev = DeviceSpec::H200;
        // 17 columns, too few rows, k not a multiple of 8, fp32 in.
        for p in [
            tn(17, 4096, 4096, R_16BF, R_16BF),
            tn(1, 1024, 4096, R_16BF, R_16BF),
            tn(1, 4096, 4100, R_16BF, R_16BF),
            tn(1, 4096, 4096, R_32F, R_32F),
        ] {
            assert!(
                plan_with(&p, &dev, Mode::Auto).is_none(),
                "{}x{}x{}",
                p.m,
                p.n,
                p.k
            );
        }
        // An MN-major weight (NT with m small): B's k stride is not 1 either way round.
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_b = 1;
        let a = MatrixSpec::col(R_16BF, 1, 4096, 1);
        let b = MatrixSpec::col(R_16BF, 4096, 4096, 4096);
        let c = MatrixSpec::col(R_16BF, 1, 4096, 1);
        let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
        assert!(plan_with(&p, &dev, Mode::Auto).is_none());
        // Lines of A in whole 16-byte units (lda 4104) or not (4100, 4099).
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = 1;
        let a = MatrixSpec::col(R_16BF, 4096, 4096, 4104);
        let b = MatrixSpec::col(R_16BF, 4096, 1, 4096);
        let c = MatrixSpec::col(R_16BF, 4096, 1, 4096);
        let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
        assert!(takes(&p));
        for lda in [4100, 4099] {
            let a = MatrixSpec::col(R_16BF, 4096, 4096, lda);
            let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
            assert!(!takes(&p));
        }
        assert!(accepts(256, 4096) && !accepts(258, 4096) && !accepts(256, 4104));
    }
}
