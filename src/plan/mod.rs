//! Planning: which kernel variant runs a `GemmProblem` on a device, and how it is launched.
//!
//! Pure Rust over plain data (no CUDA, no I/O), unit-tested with hand-made `DeviceSpec`s.

pub mod algo;
mod algo_tiles;
pub mod cache;
pub mod pack;
pub mod skinny;
pub mod slab;
pub mod sm90;
pub mod streamk;
pub mod tuned;

use crate::error::Result;
use crate::problem::{GemmPointers, GemmProblem};
use crate::types::{Math, ScalarType};
use crate::{invalid, unsupported};

/// The facts about a device that planning needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DeviceSpec {
    pub cc_major: u32,
    pub cc_minor: u32,
    pub sm_count: u32,
    /// Opt-in shared memory per block (cudaDevAttrMaxSharedMemoryPerBlockOptin).
    pub smem_per_block: u32,
    /// `sm_count` is a share of the device's SMs (`with_sm_target`): the other SMs belong to
    /// work the caller runs beside this call, so every launch stays within `sm_count` CTAs at
    /// once (one an SM: the block scheduler spreads a grid over idle SMs first, so two CTAs an
    /// SM would reach twice the SMs), no cluster is larger than the share, and no launch
    /// overlaps the previous one (programmatic dependent launch off).
    pub partial: bool,
}

impl DeviceSpec {
    /// H100/H200 SXM.
    pub const H200: DeviceSpec = DeviceSpec {
        cc_major: 9,
        cc_minor: 0,
        sm_count: 132,
        smem_per_block: 232_448,
        partial: false,
    };
    pub const A100: DeviceSpec = DeviceSpec {
        cc_major: 8,
        cc_minor: 0,
        sm_count: 108,
        smem_per_block: 166_912,
        partial: false,
    };
    pub const T4: DeviceSpec = DeviceSpec {
        cc_major: 7,
        cc_minor: 5,
        sm_count: 40,
        smem_per_block: 65_536,
        partial: false,
    };
    /// Tests only: a Blackwell data-centre part (no wgmma: the portable kernels).
    #[cfg(test)]
    pub const B200: DeviceSpec = DeviceSpec {
        cc_major: 10,
        cc_minor: 0,
        sm_count: 148,
        smem_per_block: 232_448,
        partial: false,
    };

    /// Clusters of `size` CTAs (one CTA an SM) the device holds at once, as the planner
    /// counts them. A cluster is placed within one GPC, two SMs to a TPC: clusters of 2 fill
    /// every SM (66 on the H200), while a GPC with an odd count of TPCs leaves one idle in
    /// clusters of 4: the H200 held 30 of them, not 33 (`cuOccupancyMaxActiveClusters`,
    /// session 20, `20e`; 2048x2048x8200 planned on 32 clusters of 128x256 had run 1.8x the
    /// time of clusters of 2). Other chips' GPCs are not known here: the same share is
    /// assumed (the launch clamps to the true count, `runtime::tensor_map::launch`).
    pub fn resident_clusters(&self, size: u32) -> u32 {
        let sms = self.sm_count.max(1);
        if size > sms {
            return 0; // a share of the SMs smaller than the cluster (`with_sm_target`)
        }
        match size {
            0 | 1 => sms,
            2 => sms / 2,
            s => (sms / s * 10 / 11).max(1),
        }
    }

    /// The device as a call with cuBLASLt's SM_COUNT_TARGET (or cuBLAS's
    /// cublasSetSmCountTarget) sees it: `target` SMs when that is fewer than it has (0: all),
    /// so that persistent grids, Stream-K ranges and cluster counts leave the other SMs to
    /// work the caller runs beside it (communication kernels, another stream). Everything
    /// planned for it (the plan cache's key holds the DeviceSpec) is planned for those SMs.
    pub fn with_sm_target(self, target: u32) -> DeviceSpec {
        if target == 0 || target >= self.sm_count {
            self
        } else {
            DeviceSpec {
                sm_count: target,
                partial: true,
                ..self
            }
        }
    }

    /// CTAs an SM a launch may place where its kernel fits `wanted` an SM: one on a share of
    /// the SMs (`partial`: the block scheduler spreads a grid over idle SMs first, so more would
    /// reach further SMs), else `wanted`.
    pub fn ctas_per_sm(&self, wanted: u32) -> u32 {
        if self.partial { 1 } else { wanted }
    }

    /// The NVRTC target: the exact architecture, with the `a` suffix on Hopper so that
    /// arch-specific instructions (wgmma, setmaxnreg) are available.
    pub fn arch(&self) -> String {
        let suffix = if self.cc_major == 9 && self.cc_minor == 0 {
            "a"
        } else {
            ""
        };
        format!("sm_{}{}{}", self.cc_major, self.cc_minor, suffix)
    }

    /// mma.sync with fp16/bf16/tf32 inputs and fp32 accumulate needs sm_80.
    pub fn has_mma_sync(&self) -> bool {
        self.cc_major >= 8
    }
}

/// Block tile of the portable kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile {
    pub m: u32,
    pub n: u32,
    pub k: u32,
}

/// One compiled kernel: everything that changes its binary except the architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KernelVariant {
    pub ab: ScalarType,
    pub cd: ScalarType,
    pub math: Math,
    pub tile: Tile,
    pub threads: u32,
    /// A, B, C and D are device arrays of per-batch matrix pointers (`GemmProblem::
    /// pointer_arrays`; kernels/gemm/portable.cuh `kPtrArrays`), `_pa` in the name.
    pub pointer_arrays: bool,
}

impl KernelVariant {
    /// The variant's name: its `extern "C"` entry symbol, cache-key prefix and log label.
    /// Derived from the configuration, never written by hand.
    pub fn name(&self) -> String {
        format!(
            "dg_portable_{}_{}_{}_m{}n{}k{}_t{}{}",
            self.ab.tag(),
            self.cd.tag(),
            self.math.tag(),
            self.tile.m,
            self.tile.n,
            self.tile.k,
            self.threads,
            if self.pointer_arrays { "_pa" } else { "" }
        )
    }

    /// Every portable variant the library can launch (CI compiles each of them).
    pub fn all() -> Vec<KernelVariant> {
        let mut v = Vec::new();
        for (ab, cds) in [
            (ScalarType::F32, &[ScalarType::F32][..]),
            (ScalarType::F16, &[ScalarType::F16, ScalarType::F32][..]),
            (ScalarType::BF16, &[ScalarType::BF16, ScalarType::F32][..]),
        ] {
            for &cd in cds {
                let maths: &[Math] = if ab == ScalarType::F32 {
                    &[Math::Ffma, Math::MmaTf32]
                } else {
                    &[Math::Ffma, Math::Mma]
                };
                for &math in maths {
                    let k = KernelVariant::portable(ab, cd, math);
                    v.push(k);
                    v.push(KernelVariant {
                        pointer_arrays: true,
                        ..k
                    });
                }
            }
        }
        v
    }

    /// The portable configuration for a type/math combination.
    pub fn portable(ab: ScalarType, cd: ScalarType, math: Math) -> KernelVariant {
        let tile = match math {
            Math::Ffma => Tile {
                m: 64,
                n: 64,
                k: 16,
            },
            Math::Mma | Math::MmaTf32 => Tile {
                m: 64,
                n: 64,
                k: 32,
            },
        };
        KernelVariant {
            ab,
            cd,
            math,
            tile,
            threads: 128,
            pointer_arrays: false,
        }
    }

    /// Tensor-core variants need sm_80 or newer.
    pub fn needs_mma(&self) -> bool {
        self.math != Math::Ffma
    }
}

/// Grid dimensions are capped at what CUDA allows; kernels loop over what is left.
pub const MAX_GRID_Y: u64 = 65_535;
pub const MAX_GRID_Z: u64 = 65_535;
pub const MAX_GRID_X: u64 = (1 << 31) - 1;

/// Any compiled kernel the library launches; the registry's key (with the architecture).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kernel {
    /// The correctness path: every case, every architecture from sm_75.
    Portable(KernelVariant),
    /// Hopper main-tile kernel: TMA + wgmma, warp-specialised, persistent.
    Sm90(sm90::Sm90Variant),
    /// Copies a strided A or B into the workspace with TMA-friendly strides (`plan::pack`);
    /// launched before an sm90 kernel, never a plan's kernel itself.
    Pack(pack::PackVariant),
    /// Decode's GEMMs: one side of D at most 16, mma.sync over a per-thread cp.async ring
    /// (`plan::skinny`), sm_80+.
    Skinny(skinny::SkinnyVariant),
}

impl Kernel {
    /// Entry symbol, cache-key prefix and log label.
    pub fn name(&self) -> String {
        match self {
            Kernel::Portable(v) => v.name(),
            Kernel::Sm90(v) => v.name(),
            Kernel::Pack(v) => v.name(),
            Kernel::Skinny(v) => v.name(),
        }
    }

    /// Whether `dev` can run the kernel at all.
    pub fn runs_on(&self, dev: &DeviceSpec) -> bool {
        match self {
            Kernel::Portable(v) => !v.needs_mma() || dev.has_mma_sync(),
            Kernel::Sm90(v) => v.fits_device(dev),
            Kernel::Pack(v) => v.runs_on(dev),
            Kernel::Skinny(v) => v.runs_on(dev),
        }
    }

    /// Dynamic shared memory per CTA (the portable kernels use static shared memory only).
    pub fn dynamic_smem(&self) -> u32 {
        match self {
            Kernel::Portable(_) | Kernel::Pack(_) => 0,
            Kernel::Sm90(v) => v.smem_bytes() as u32,
            Kernel::Skinny(v) => v.smem_bytes(),
        }
    }
}

/// A launch decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Plan {
    pub kernel: Kernel,
    pub grid: [u32; 3],
    pub block: u32,
    /// Workspace bytes the plan needs: the packed copies of A and B (if any) first, then the
    /// Stream-K fixup's (if any).
    pub workspace: u64,
    /// How the sm90 kernel shares out its tiles (data-parallel for the portable kernels).
    pub decomposition: streamk::Decomposition,
    /// The cost model's estimate in nanoseconds (sm90 plans; 0 when not modelled). Ranks the
    /// heuristic's candidates.
    pub estimate_ns: u64,
    /// A and/or B copied into the workspace first, for an sm90 kernel whose TMA cannot read
    /// them where they are (`plan::pack`); the kernel then runs on `pack::packed_problem`.
    pub pack: Option<pack::PackSpec>,
    /// The kernel computes the transposed problem, D^T = op(B)^T op(A)^T
    /// (`GemmProblem::transposed`, `GemmPointers::swapped`): a small m becomes the narrow
    /// tiles' small n. Everything else in the plan (kernel, grid, packing, workspace) is for the
    /// transposed problem.
    pub swap: bool,
    /// `[row slabs, column slabs]`, `[1, 1]` for a plan that runs whole. Otherwise D is cut
    /// into blocks (`slab::blocks`), each run as a problem of its own, one after another, so
    /// that operands TMA cannot read where they are are packed a block's share at a time
    /// into a workspace too small for whole copies (`plan::slab`). The kernel, grid and
    /// decomposition are then those of the first block's plan (what the heuristic reports).
    pub slabs: [u32; 2],
}

/// First word of an encoded algo: "dgm" + encoding version 3 (3: word 7 holds the plan's
/// cuBLASLt configuration, `algo::Config`). An algo whose first word differs was not made by
/// this library (or is from another version): INVALID_VALUE.
pub const ALGO_MAGIC: u64 = 0x6467_6d00_0000_0003;

impl Plan {
    /// The kernel's name, plus `+pack_a|b|ab` when operands are packed first and the
    /// decomposition when it is not data-parallel, e.g.
    /// `dg_sm90_bf16_bf16_tn_m128n256k64_s4_c1x1+pack_ab+sk156x132`; distinct plans encode to
    /// distinct algos.
    pub fn name(&self) -> String {
        let mut s = self.kernel.name();
        if self.swap {
            s += "+swap";
        }
        if let Some(p) = &self.pack {
            s += &format!("+pack_{}", p.tag());
        }
        if !self.decomposition.is_data_parallel() {
            s += &format!("+{}", self.decomposition.tag());
        }
        if self.is_slabbed() {
            s += &format!("+slab{}x{}", self.slabs[0], self.slabs[1]);
        }
        s
    }

    /// The problem and pointers the plan's main kernel runs on (`gemm::run`): `oriented`, then
    /// `on_copies`. (A slabbed plan's blocks each have their own plan.)
    pub fn kernel_operands(
        &self,
        p: &GemmProblem,
        ptrs: &GemmPointers,
        workspace: u64,
    ) -> (GemmProblem, GemmPointers) {
        let (p, ptrs) = self.oriented(p, ptrs);
        self.on_copies(&p, &ptrs, workspace)
    }

    /// The call's problem and pointers in the plan's orientation: transposed with swapped
    /// pointers for a swapped plan (its kernel, packing and workspace are all for that).
    pub fn oriented(&self, p: &GemmProblem, ptrs: &GemmPointers) -> (GemmProblem, GemmPointers) {
        if self.swap {
            (p.transposed(), ptrs.swapped())
        } else {
            (*p, *ptrs)
        }
    }

    /// An oriented problem and its pointers (`oriented`) on the packed copies in `workspace`
    /// where the plan packs.
    pub fn on_copies(
        &self,
        p: &GemmProblem,
        ptrs: &GemmPointers,
        workspace: u64,
    ) -> (GemmProblem, GemmPointers) {
        match &self.pack {
            Some(spec) => (
                pack::packed_problem(p, spec),
                pack::packed_pointers(ptrs, spec, workspace),
            ),
            None => (*p, *ptrs),
        }
    }

    /// Whether D is computed in blocks (`slabs`).
    pub fn is_slabbed(&self) -> bool {
        self.slabs != [1, 1]
    }

    /// Whether tiles are split along k and their fp32 partials added (Stream-K and split-K
    /// through the workspace, split-K clusters through shared memory): what cuBLASLt calls a
    /// reduction in the compute type (REDUCTION_SCHEME_COMPUTE_TYPE).
    pub fn reduces(&self) -> bool {
        self.decomposition.sk_tiles > 0 || matches!(self.kernel, Kernel::Sm90(v) if v.split_k > 1)
    }

    /// Whether a call running this plan may add fp32 partials of split tiles: `reduces`, or a
    /// slab plan, whose blocks each choose their own plan when they run (`slab::block_plan`),
    /// some of which split k where the listed first block's does not (a review: 4097³ with
    /// both operands copied, `+slab6x6` on a 64x128 tile, runs its 768x257 blocks as
    /// 128x64 Stream-K). What REDUCTION_SCHEME_MASK filters.
    pub fn may_reduce(&self) -> bool {
        self.reduces() || self.is_slabbed()
    }

    /// Waves of CTAs over the device (cuBLASLt's heuristic `wavesCount`).
    pub fn waves(&self, dev: &DeviceSpec) -> f32 {
        let ctas = self.grid.iter().map(|&g| g as f64).product::<f64>();
        (ctas / dev.sm_count.max(1) as f64) as f32
    }

    /// Encodes the plan into the 8 words of a `deepgemmLtMatmulAlgo_t`: the magic, a stable
    /// hash of the kernel's name (which spells out its whole configuration), the launch shape,
    /// the workspace size and (word 7) its cuBLASLt configuration (`algo::Config::of`, what
    /// AlgoConfigGetAttribute reads). Word 6 is the list's (`cache::MISALIGNED_WORD`).
    /// Decoding never trusts these words: see `from_algo`.
    pub fn to_algo(&self) -> [u64; 8] {
        let h = crate::jit::cache::fnv1a128(&[self.name().as_bytes()]);
        [
            ALGO_MAGIC,
            h as u64,
            (h >> 64) as u64,
            self.grid[0] as u64 | (self.grid[1] as u64) << 32,
            self.grid[2] as u64 | (self.block as u64) << 32,
            self.workspace,
            0,
            algo::Config::of(self).pack(self.types()),
        ]
    }

    /// What the plan's kernel multiplies and writes: its inputs' type, math and output type.
    pub fn types(&self) -> algo::Types {
        let (ab, cd, math) = match self.kernel {
            Kernel::Portable(v) => (v.ab, v.cd, v.math),
            Kernel::Sm90(v) => (v.ab, v.cd, sm90::math_for(v.ab)),
            Kernel::Skinny(v) => (v.ab, v.cd, Math::Mma),
            // Never a plan's kernel; its elements' size stands in.
            Kernel::Pack(v) => {
                let t = if v.elem_bytes == 4 {
                    ScalarType::F32
                } else {
                    ScalarType::F16
                };
                (t, t, Math::Ffma)
            }
        };
        algo::Types { ab, cd, math }
    }

    /// Decodes an algo made by `to_algo`: it must be one of the candidates the heuristic
    /// makes for `p` on `dev`, so a caller-supplied algo can never launch a mismatched kernel.
    pub fn from_algo(data: &[u64; 8], p: &GemmProblem, dev: &DeviceSpec) -> Result<Plan> {
        if data[0] != ALGO_MAGIC {
            return Err(invalid!("algo was not produced by deepgemm's heuristic"));
        }
        let all = candidates(p, dev)?;
        all.iter()
            .find(|c| c.to_algo() == *data)
            .copied()
            .ok_or_else(|| {
                invalid!(
                    "algo does not fit this problem (candidates: {})",
                    all.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
                )
            })
    }
}

fn ceil_div(a: u64, b: u64) -> u64 {
    a.div_ceil(b)
}

/// Which kernel families the planner may use: `DEEPGEMM_KERNELS=portable` restricts it to
/// the correctness path (tests and comparisons); anything else, or unset, allows all.
/// Read once per process.
pub fn portable_only() -> bool {
    static ONLY: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_KERNELS").is_ok_and(|v| v.trim() == "portable")
    });
    *ONLY
}

/// The portable plan for `p` on `dev`. On devices without mma.sync the tensor-core math
/// falls back to FFMA (exact fp32 products, so still within every tolerance).
pub fn portable(p: &GemmProblem, dev: &DeviceSpec) -> Result<Plan> {
    if dev.cc_major < 7 || (dev.cc_major == 7 && dev.cc_minor < 5) {
        return Err(unsupported!(
            "compute capability {}.{}: deepgemm needs sm_75 or newer",
            dev.cc_major,
            dev.cc_minor
        ));
    }
    let math = if dev.has_mma_sync() {
        p.math
    } else {
        Math::Ffma
    };
    let variant = KernelVariant {
        pointer_arrays: p.pointer_arrays,
        ..KernelVariant::portable(p.ab_type, p.cd_type, math)
    };
    let grid_for = |tiles: u64, cap: u64| -> u32 { tiles.clamp(1, cap) as u32 };
    let m_tiles = ceil_div(p.m, variant.tile.m as u64);
    let n_tiles = ceil_div(p.n, variant.tile.n as u64);
    // More tile rows than a grid holds: the kernel walks them `gridDim.x` apart
    // (kernels/gemm/portable.cuh), as it walks batches.
    Ok(Plan {
        kernel: Kernel::Portable(variant),
        grid: [
            grid_for(m_tiles, MAX_GRID_X),
            grid_for(n_tiles, MAX_GRID_Y),
            grid_for(p.batch, MAX_GRID_Z),
        ],
        block: variant.threads,
        workspace: 0,
        decomposition: streamk::Decomposition::default(),
        estimate_ns: 0,
        pack: None,
        swap: false,
        slabs: [1, 1],
    })
}

/// The most Hopper main-tile plans the heuristic lists.
pub const MAX_SM90_PLANS: usize = 8;

/// The Hopper main-tile plans for `p`, best first by the cost model (every fitting tile with
/// each decomposition worth considering, `streamk::decompositions`), or why there is none:
/// never an empty list, so callers may take the first.
pub fn hopper_plans(p: &GemmProblem, dev: &DeviceSpec) -> std::result::Result<Vec<Plan>, String> {
    hopper_plans_upto(p, dev, MAX_SM90_PLANS)
}

/// As `hopper_plans`, the best `limit` of them (`deepgemm-bench --plans-all`: the model's
/// estimate of every plan, to score a model against `--sweep` timings).
pub fn hopper_plans_upto(
    p: &GemmProblem,
    dev: &DeviceSpec,
    limit: usize,
) -> std::result::Result<Vec<Plan>, String> {
    if dev.cc_major != 9 || dev.cc_minor != 0 {
        return Err(format!("sm_{}{} is not sm_90", dev.cc_major, dev.cc_minor));
    }
    #[cfg(test)]
    tests::PLANNINGS.with(|n| n.set(n.get() + 1));
    let variants = sm90::fitting(p, dev);
    if variants.is_empty() {
        return Err(why_not_sm90(p));
    }
    let mut plans: Vec<Plan> = Vec::new();
    for v in variants {
        let k_iters = p.k.div_ceil(v.block_k as u64).max(1);
        for (d, s) in streamk::decompositions(&v, p, dev) {
            plans.push(sm90_plan(v, d, k_iters, (s * 1e9) as u64));
        }
    }
    if plans.is_empty() {
        // Every fitting variant was left without a schedule (a forced decomposition).
        return Err(format!(
            "no sm90 variant has a schedule under DEEPGEMM_DECOMPOSITION ({:?})",
            streamk::forced()
        ));
    }
    // Stable: equal estimates keep the wider tile and the data-parallel schedule first. Keys
    // and indices are sorted, not the plans: moving whole plans was a sixth of a packed
    // problem's planning (session 79).
    let mut order: Vec<(u64, usize)> = plans.iter().map(|c| c.estimate_ns).zip(0..).collect();
    order.sort_unstable();
    let mut plans: Vec<Plan> = order.into_iter().map(|(_, i)| plans[i]).collect();
    pingpong_for_narrow(&mut plans, p, dev);
    solo_for_short(&mut plans, p, dev);
    solo_for_tiny_m(&mut plans, p, dev);
    solo_split_for_few_tiles(&mut plans, p, dev);
    plans.truncate(limit.max(1));
    Ok(plans)
}

/// Where the model's first plan is a 128x64 tile, unclustered, unsplit and data-parallel in
/// one wave (one tile a CTA), the 64x128 ping-pong tile of the same types and layout goes
/// first when it fits one wave too: the same CTA count and bytes loaded, one warpgroup's
/// m64n128 wgmmas instead of two warpgroups' m64n64 (each reading the whole B tile). The
/// 128x64 plan stays second. Not under a forced decomposition, cluster or ping-pong (tests and
/// sweeps). H200, sessions 40-41: in `40f`'s sweeps the 29 shape-layouts a first version moved
/// took 0.974 of the time; timed against main (`41a`, 99 shape-layouts, two rounds each) it
/// split by the kernel's operand layout, which these limits follow:
/// - A MN-major, B K-major (NN, TT computed swapped): 0.86-0.95 even with up to a quarter more
///   tiles; a 64-row A box is one 128-byte swizzle row instead of two.
/// - A K-major, B MN-major (TT): 0.96-1.13, geomean above 1 (the B box doubles along its
///   contiguous n instead): never moved.
/// - TN and NT: 0.90-0.98 where the tile count stays within a sixteenth, up to 1.065 where
///   64x128 tiles pad n by more (1536x264, 1760x408, 1104x648 NT).
/// - m or n at most 128 (one tile row either way; 128x7168, 7168x128, 128x8192): 1.0-1.13 in
///   every layout, so not there.
fn pingpong_for_narrow(plans: &mut Vec<Plan>, p: &GemmProblem, dev: &DeviceSpec) {
    let Some((first, v)) = first_sm90(plans) else {
        return;
    };
    let sms = dev.sm_count.max(1) as u64;
    let narrow = v.block_m == 128
        && v.block_n == 64
        && v.multicast_size() == 1
        && v.split_k == 1
        && !v.ring_epilogue
        && first.decomposition.is_data_parallel()
        && v.num_tiles(p) <= sms
        && p.m > 128
        && p.n > 128
        && !(v.major_a == sm90::Major::K && v.major_b == sm90::Major::MN);
    if !narrow
        || streamk::forced() != streamk::Forced::Auto
        || sm90::pingpong_forced()
        || sm90::deep_forced()
        || sm90::cluster_forced().is_some()
    {
        return;
    }
    let slack: (u64, u64) = if (v.major_a, v.major_b) == (sm90::Major::MN, sm90::Major::K) {
        (5, 4)
    } else {
        (17, 16)
    };
    // The one ping-pong 64x128 of these types and layout (no clustered twins), built directly:
    // scanning `Sm90Variant::all()` again would double the planner's variant work a call.
    let pingpong = sm90::Sm90Variant::with_layout(
        v.ab,
        v.cd,
        (v.major_a, v.major_b),
        64,
        128,
        sm90::HOPPER_SMEM_BUDGET,
    )
    // At most a quarter more tiles for NN, a sixteenth otherwise (the gain the layouts above
    // leave to pay for padding).
    .filter(|x| x.num_tiles(p) * slack.1 <= v.num_tiles(p) * slack.0);
    // Under DEEPGEMM_PINGPONG_RING=solo, the full-ring solo 64x128 (128-deep) in its place.
    let pingpong = if pingpong_as_solo() {
        pingpong.and_then(|x| {
            sm90::Sm90Variant::solo_tile(x.ab, x.cd, (x.major_a, x.major_b), 128)
                .and_then(sm90::Sm90Variant::with_full_ring)
        })
    } else {
        pingpong
    };
    if let Some(x) = pingpong {
        first_in_one_wave(plans, x, p, dev);
    }
}

/// The first plan and its Hopper variant, where the first plan is a Hopper one (the rules below
/// reorder only such lists).
fn first_sm90(plans: &[Plan]) -> Option<(Plan, sm90::Sm90Variant)> {
    let first = plans.first().copied()?;
    match first.kernel {
        Kernel::Sm90(v) => Some((first, v)),
        _ => None,
    }
}

/// Puts `x` first, data-parallel, where the planner may launch it on `p` (the variant filter,
/// the problem's layout and the device, no 8-column slabs) in one wave (at most one tile an
/// SM), with the estimate of the plan it displaces (the transposed problem's plans are merged
/// by estimate). `pingpong_for_narrow` and `solo_for_short` build their one variant directly
/// and place it so.
fn first_in_one_wave(
    plans: &mut Vec<Plan>,
    x: sm90::Sm90Variant,
    p: &GemmProblem,
    dev: &DeviceSpec,
) {
    let Some(estimate) = plans.first().map(|f| f.estimate_ns) else {
        return;
    };
    if !can_go_first(&x, p, dev) || x.num_tiles(p) > dev.sm_count.max(1) as u64 {
        return;
    }
    let Some((d, _)) = streamk::decompositions(&x, p, dev)
        .into_iter()
        .find(|(d, _)| d.is_data_parallel())
    else {
        return;
    };
    let k_iters = p.k.div_ceil(x.block_k as u64).max(1);
    plans.insert(0, sm90_plan(x, d, k_iters, estimate));
}

/// Whether variant `x`, built directly by a rule that puts it first, may run `p` here: the
/// `DEEPGEMM_VARIANT` filter keeps it, it takes the problem and the device, and it is not a
/// row-major D's 8-column slabs (`sm90::row_slabs_of_8`, never planned).
fn can_go_first(x: &sm90::Sm90Variant, p: &GemmProblem, dev: &DeviceSpec) -> bool {
    !sm90::with_only(vec![*x], sm90::variant_filter()).is_empty()
        && x.fits(p)
        && x.fits_device(dev)
        && !sm90::row_slabs_of_8(x, p)
}

/// A forced decomposition, ping-pong, solo, deep or cluster (tests and sweeps): the solo rules
/// stand aside so that those schedules are what runs.
fn schedule_forced() -> bool {
    streamk::forced() != streamk::Forced::Auto
        || sm90::pingpong_forced()
        || sm90::solo_forced()
        || sm90::tall_mode() == sm90::TallMode::Only
        || sm90::column_split_mode() == sm90::TallMode::Only
        || sm90::deep_forced()
        || sm90::cluster_forced().is_some()
}

/// The most k-iterations (of 64 16-bit or, tf32, 32 fp32 values: 128 bytes of a row) at which
/// `solo_for_short` puts the solo 64x64 tile first.
pub const SOLO_MAX_K_ITERS: u64 = 64;

/// Where the solo 64x64 tile (one consumer warpgroup, 256 threads: `sm90::SOLO_TILES_N`) of the
/// first plan's types and layout has one tile a CTA on at most one CTA an SM and k is at most
/// `SOLO_MAX_K_ITERS` 64-k slabs, it goes first, data-parallel, with the first plan's estimate
/// (the first plan second). The tile is the full-ring one (`Sm90Variant::with_full_ring`:
/// 128-deep stages, six of them, the whole SM's shared memory, one CTA an SM), which with one
/// tile a CTA in one wave loses nothing to the half-ring twin's second CTA an SM.
/// H200:
/// - Session 41 (`41c`/`41d`, the 64-deep half-ring tile, k <= 20): 0.918 of the plan's time
///   in sample (128x32, 128x64 or ping-pong 64x128 plans, m and n 264-1600), out of sample
///   (`41e`) TN 0.959, NT 0.918, NN 0.945, TT 0.875; the same tile lost with more tiles than
///   SMs or a longer k (up to 1.16x), on large shapes 2-2.5x.
/// - Session 46 (`46c`: every solo candidate swept against session 41's sweeps, across calls):
///   where the 64x64 tiles fit one wave the full ring ran 0.79-0.88 of the half ring's time,
///   where they do not 1.05-1.17x. `46d` (the same build alternating, two rounds, every layout:
///   session 41's out-of-sample moves and every kept-set shape-layout the change moves): k <= 20
///   (full ring for half, 268 shape-layouts) 0.962-0.967 of the time by layout (worst 1144x376x152
///   1.07); k 21-64 (off 128x64 / 128x32 Stream-K plans, 88) 0.921-0.962 (432x288x1632 TT 0.76;
///   worst 632x360x2880 NT 1.22, 1632x264x2832 TN 1.12). Out of sample (`46f`, a fresh random
///   set, 80 shape-layouts a layout): 0.919-0.956 by layout; the bound scored on both samples
///   is flat past ~44 iterations (64: 0.932 of the time at 21-64 against 20's rule).
///
/// m and n at least 256: the sets measured (decode and small-n shapes keep their narrow tiles,
/// which 64x64 would pad). Not under a forced decomposition, cluster, ping-pong, deep or solo.
fn solo_for_short(plans: &mut Vec<Plan>, p: &GemmProblem, dev: &DeviceSpec) {
    let Some((_, v)) = first_sm90(plans) else {
        return;
    };
    let k_iters = v.slab_steps(p.k);
    // m and n at least 256: the sets measured (decode and small-n shapes keep their narrow
    // tiles, which 64x64 would pad). 16-bit inputs, and tf32 TN (`solo_rules_take`).
    if k_iters > solo_max_k_iters()
        || p.m < 256
        || p.n < 256
        || schedule_forced()
        || !solo_rules_take(&v, SoloRule::Short)
    {
        return;
    }
    // The one solo 64x64 of these types and layout, built directly (as pingpong_for_narrow).
    let solo = sm90::Sm90Variant::solo_tile(v.ab, v.cd, (v.major_a, v.major_b), 64);
    let x = if solo_full_ring() {
        solo.and_then(sm90::Sm90Variant::with_full_ring)
    } else {
        solo
    };
    if let Some(x) = x {
        first_in_one_wave(plans, x, p, dev);
    }
}

/// The most rows of D (m) at which `solo_for_tiny_m` puts the solo 64x64 first: its tile holds
/// them all, where a 128-row tile loads a box half or more past the matrix.
pub const SOLO_TINY_M_MAX_ROWS: u64 = 64;

/// The most bytes of a row of A (k values) at which `solo_for_tiny_m` moves a problem: one
/// 128-byte slab, one k-iteration of the 64-deep tile.
pub const SOLO_TINY_M_MAX_K_BYTES: u64 = 128;

/// Where m is at most `SOLO_TINY_M_MAX_ROWS` and k one 128-byte slab (64 16-bit values), the
/// 64-deep solo 64x64 (half ring, two CTAs an SM) of the first plan's types and layout goes
/// first, data-parallel, with the first plan's estimate: a launch of one k-iteration is its
/// fixed costs, and the 128-row tiles' first stage lands later with half its box or more past
/// the matrix (DG_TRACE, session 66: ~1,800 cycles after its issue against ~1,200 with none).
/// Session 66 (`66h`, H100, TN, 60 shapes of m <= 64 from `small-m-66.txt`, the solo tile
/// forced against the default plans, two rounds): k <= 64 0.953 of the time (20 shapes;
/// 32x32x40 6.4 -> 5.8 us, 8x688x64 6.6 -> 6.0; those the copies take about level), k 65-127
/// 1.003, a longer k 0.98-1.11 by bin (52x23x3793 1.64): not there. Out of sample (`66i`,
/// H100, the 175 shape-layouts it moves among 80 fresh shapes, `tiny-m-66.txt`, against the
/// build before, two rounds): TN 0.937, NN 0.945, NT 0.930, TT 0.949 of the time, none slower
/// (0.80-0.83 -> 0.85-0.88x cuBLASLt). Not under a forced
/// schedule, nor for types and layouts the solo rules leave (`solo_rules_take`).
fn solo_for_tiny_m(plans: &mut Vec<Plan>, p: &GemmProblem, dev: &DeviceSpec) {
    let Some((_, v)) = first_sm90(plans) else {
        return;
    };
    if v.solo()
        || p.m > SOLO_TINY_M_MAX_ROWS
        || p.k.saturating_mul(v.ab.size_bytes() as u64) > SOLO_TINY_M_MAX_K_BYTES
        || schedule_forced()
        || !solo_rules_take(&v, SoloRule::Short)
    {
        return;
    }
    if let Some(x) = sm90::Sm90Variant::solo_tile(v.ab, v.cd, (v.major_a, v.major_b), 64) {
        first_in_one_wave(plans, x, p, dev);
    }
}

/// The most 64x64 tiles (batches included) at which `solo_split_for_few_tiles` puts the
/// full-ring solo 64x64 first, split over several CTAs a tile.
pub const SOLO_SPLIT_MAX_TILES: u64 = 36;

/// The fewest k-iterations (of 128 16-bit or, tf32, 64 fp32 values) at which
/// `solo_split_for_few_tiles` moves a problem: the shortest k measured ahead was 3952 (31);
/// 712-1632 (6-13) ran 1.06-1.07x (bf16).
pub const SOLO_SPLIT_MIN_K_ITERS: u64 = 24;

/// The least m and n `solo_split_for_few_tiles` moves (decode shapes keep their narrow tiles;
/// 96 is the smallest measured).
pub const SOLO_SPLIT_MIN_MN: u64 = 96;

/// The least m and n `solo_split_for_few_tiles` moves in tf32 (under `DEEPGEMM_SOLO_TF32=1`):
/// more than one 128-row tile each way. Session 62 (`61a`, H100, in sample): the rule's 99 tf32
/// TN moves ran 0.979 of the time, losers to 1.25x where m or n was at most 128 (160x96x3128,
/// 128x128x4096, 120x1008x9256: their 128-row plans split more ways); the 63 of m and n at
/// least 136 0.957 (worst 1.135), the 36 others 1.017. Out of sample: `scripts/gpu-session63a.sh`.
pub const SOLO_SPLIT_TF32_MIN_MN: u64 = 136;

/// Where a problem has at most `SOLO_SPLIT_MAX_TILES` tiles of 64x64 and the model's first
/// schedule for the full-ring solo 64x64 (`Sm90Variant::with_full_ring`, 128-deep stages, one
/// CTA an SM) splits its tiles over several CTAs (Stream-K or split-K) on a k of at least
/// `SOLO_SPLIT_MIN_K_ITERS`, that plan
/// goes first with the first plan's estimate (the others after it). Few tiles of 128 rows pad
/// m or n more and split each tile more ways than 64x64 ones; the solo tile's k-step costs
/// more per multiply-add, which a long k split over the device hides. H200, session 47 (`47b`,
/// every full-ring solo schedule swept on small-mn-long-k, under-wave and random-21d TN
/// against the default plans of the same build, the sweep's ~4.4% under the bench taken
/// out): the 13 shapes of at most 36 such tiles whose first schedule splits ran 0.933 of the
/// default plans' time (552x168x5656 0.86, 368x384x3952 0.86, 368x360x11072 0.88; worst
/// 336x328x6760 1.09), those of 37-64 tiles 1.0-1.2 (600x240x16144 1.13, 752x232x15008
/// 1.16). Not under a forced decomposition, cluster, ping-pong, deep or solo, or
/// `DEEPGEMM_SOLO_SPLIT=0` (for measuring).
fn solo_split_for_few_tiles(plans: &mut Vec<Plan>, p: &GemmProblem, dev: &DeviceSpec) {
    let Some((first, v)) = first_sm90(plans) else {
        return;
    };
    // 16-bit inputs; tf32 only under `DEEPGEMM_SOLO_TF32=1` (`solo_rules_take`).
    let min_mn = if v.ab == crate::types::ScalarType::F32 {
        SOLO_SPLIT_TF32_MIN_MN
    } else {
        SOLO_SPLIT_MIN_MN
    };
    if !solo_split_enabled()
        || p.m.min(p.n) < min_mn
        || schedule_forced()
        || !solo_rules_take(&v, SoloRule::Split)
    {
        return;
    }
    let Some(x) = sm90::Sm90Variant::solo_tile(v.ab, v.cd, (v.major_a, v.major_b), 64)
        .and_then(sm90::Sm90Variant::with_full_ring)
    else {
        return;
    };
    if !can_go_first(&x, p, dev) || x.num_tiles(p) > SOLO_SPLIT_MAX_TILES {
        return;
    }
    let k_iters = p.k.div_ceil(x.block_k as u64).max(1);
    if k_iters < SOLO_SPLIT_MIN_K_ITERS {
        return;
    }
    let Some(&(d, _)) =
        streamk::decompositions_solo_sk(&x, p, dev, streamk::Forced::Auto, true).first()
    else {
        return;
    };
    if d.splits_tiles(k_iters) {
        plans.insert(0, sm90_plan(x, d, k_iters, first.estimate_ns));
    }
}

/// Which of the two solo rules asks `solo_rules_take`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum SoloRule {
    /// `solo_for_short`: one solo 64x64 tile a CTA, k unsplit.
    Short,
    /// `solo_split_for_few_tiles`: the full-ring solo 64x64 split over several CTAs a tile.
    Split,
}

/// Whether the solo rule `rule` may move a problem whose first plan is `v`: 16-bit inputs
/// always; tf32 (whose solo tiles are TN only: `Sm90Variant::solo_tile`) by `solo_tf32`.
fn solo_rules_take(v: &sm90::Sm90Variant, rule: SoloRule) -> bool {
    v.ab.size_bytes() == 2 || (v.ab == crate::types::ScalarType::F32 && solo_tf32(rule))
}

/// Whether the solo rule `rule` takes tf32 problems. Session 62 (`61a`, H100: the 124 kept-set
/// tf32 TN shapes the two rules move, `DEEPGEMM_SOLO_TF32=1` against the default, two rounds
/// each) split by rule: the 25 `solo_for_short` moves ran 0.906 of the time (worst 1.144,
/// 256x256x1024), the 99 `solo_split_for_few_tiles` moves 0.979 with five past 1.10 (few tiles
/// of 64x64: 160x96x3128 1.25, 128x128x4096 1.22, 120x1008x9256 1.18, whose 128-row plans
/// split more ways). So `solo_for_short` takes tf32 by default (`DEEPGEMM_SOLO_TF32=0` turns it
/// off, for measuring) and the split rule only under `DEEPGEMM_SOLO_TF32=1`. Read once.
fn solo_tf32(rule: SoloRule) -> bool {
    static V: once_cell::sync::Lazy<Option<bool>> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_SOLO_TF32")
            .ok()
            .map(|v| v.trim() == "1")
    });
    match rule {
        SoloRule::Short => V.unwrap_or(true),
        SoloRule::Split => V.unwrap_or(false),
    }
}

/// `DEEPGEMM_SOLO_SPLIT=0` turns `solo_split_for_few_tiles` off, for measuring it. Read once.
pub fn solo_split_enabled() -> bool {
    static F: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_SOLO_SPLIT").map_or(true, |v| v.trim() != "0")
    });
    *F
}

/// `DEEPGEMM_PINGPONG_RING=solo`: `pingpong_for_narrow` takes the solo 64x128 with 128-deep
/// stages and the whole SM's ring (`Sm90Variant::with_full_ring`) in place of the ping-pong
/// 64x128, for measuring it. H200, session 46 (`46d`, its out-of-sample moves `moved-41-*`,
/// 267 shape-layouts, two rounds against the default): TN 1.020 of the time, NN 1.022, TT 1.024,
/// NT 0.990 (1056x640x1632 0.87): not taken. Read once.
pub fn pingpong_as_solo() -> bool {
    static F: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_PINGPONG_RING").is_ok_and(|v| v.trim() == "solo")
    });
    *F
}

/// `DEEPGEMM_SOLO_MAX_K` = N: `solo_for_short`'s bound on k-iterations (as above) in place of
/// `SOLO_MAX_K_ITERS`, for measuring the rule. Read once.
pub fn solo_max_k_iters() -> u64 {
    static N: once_cell::sync::Lazy<u64> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_SOLO_MAX_K")
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
            .unwrap_or(SOLO_MAX_K_ITERS)
    });
    *N
}

/// `solo_for_short`'s tile: the full-ring solo 64x64 (`Sm90Variant::with_full_ring`) unless
/// `DEEPGEMM_SOLO_RING=half` asks for the 64-deep half-ring one (session 41's rule, measured
/// only up to 20 k-iterations), for measuring it. Read once.
pub fn solo_full_ring() -> bool {
    static F: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_SOLO_RING").map_or(true, |v| v.trim() != "half")
    });
    *F
}

/// The plan running sm90 variant `v` whole and unswapped under decomposition `d`.
fn sm90_plan(
    v: sm90::Sm90Variant,
    d: streamk::Decomposition,
    k_iters: u64,
    estimate_ns: u64,
) -> Plan {
    Plan {
        kernel: Kernel::Sm90(v),
        grid: [d.grid, 1, 1],
        block: v.threads(),
        workspace: d.workspace_bytes(&v, k_iters),
        decomposition: d,
        estimate_ns,
        pack: None,
        swap: false,
        slabs: [1, 1],
    }
}

/// Where the transposed problem is always worth planning: m at most this, and below n.
pub const SWAP_MAX_M: u64 = 64;

/// Above SWAP_MAX_M, a transposed plan is listed only when the model puts it this fraction
/// below the direct plans' best: between two orientations of one problem the model's error
/// (session 4 sweeps: up to ~10% on one tile) is of the same order as most differences.
pub const SWAP_MARGIN: f64 = 0.10;

/// SWAP_MARGIN where the two orientations are alike: both operands K-major (TN: the
/// transposed problem runs the same kernels), D both ways a TMA-store target, and the
/// transposed plan's tile stores it by TMA (not the 16/32-wide tiles, which have only the
/// general epilogue). What is left between them is the tiles' fill, which the model follows.
/// H200, session 35 (`35b`, the 18 TN shape-layouts of the kept sets a 5% margin moved, one
/// round against 10%): the 16 that fit this rule 0.969 of the time (14336x1024x4096, PyTorch's
/// MLP prefill, 172.3 -> 157.6 us on 128x224 transposed, 0.88 -> 0.96x cuBLASLt; 1000x344x11120
/// 0.914; worst 2944x512x6528 1.029); the 2 onto 128x16 / 128x32 tiles 1.24 and 0.99. Session
/// 34 had measured the margin without the tile rule and with a row-major D's every box in
/// slabs at 1.003 over 15 moves (`34b`).
pub const SWAP_MARGIN_ALIKE: f64 = 0.05;

/// The margin the transposed plan `swapped` (of `p^T`) must be modelled below the direct best
/// of `p` by: SWAP_MARGIN_ALIKE where the orientations are alike (see there), else SWAP_MARGIN.
fn swap_margin(p: &GemmProblem, swapped: &Plan) -> f64 {
    // op(A) is m x k and op(B) k x n: K-major is a unit stride along k.
    let tn = p.a.col == 1 && p.b.row == 1;
    let stores = |q: &GemmProblem| {
        sm90::tma_store_ok(
            q,
            sm90::TMA_STRIDE_ALIGN,
            crate::problem::Scalar::Host(0.0),
            false,
        )
    };
    let tile_stores = match swapped.kernel {
        Kernel::Sm90(v) => v.tma_store_cols(&p.transposed()).is_some(),
        _ => false,
    };
    if tn && tile_stores && stores(p) && stores(&p.transposed()) {
        SWAP_MARGIN_ALIKE
    } else {
        SWAP_MARGIN
    }
}

/// The direct plans' best estimates the transposed plans are held against (`swapped_plans`):
/// of them all, and of those that are not hybrids over clusters (`streamk::is_cluster_hybrid`,
/// session 48). The margin was fitted between plain plans, and a transposed plain plan held
/// against a direct cluster hybrid lost where it should not: `48c`'s TT moves from a transposed
/// plan onto a direct cluster hybrid the model put 3-9% slower ran 1.00-1.13x the time (the
/// other TT moves 0.78-1.03x). So a transposed cluster hybrid must beat every direct plan by
/// the margin, a plain one the plain direct plans, and the rest is ranked by estimate.
#[derive(Clone, Copy, Debug)]
pub struct DirectBest {
    pub all: u64,
    pub plain: u64,
}

/// Whether `c` (a plan of `p`) is a hybrid over clusters (`streamk::is_cluster_hybrid`).
fn cluster_hybrid(c: &Plan, p: &GemmProblem, dev: &DeviceSpec) -> bool {
    match c.kernel {
        Kernel::Sm90(v) => streamk::is_cluster_hybrid(&v, p, &c.decomposition, dev),
        _ => false,
    }
}

/// Puts each of `transposed` into `list` before the first plan modelled slower, then keeps
/// at most 2 x MAX_SM90_PLANS (a list of direct plans with transposed ones among them).
fn insert_by_estimate(list: &mut Vec<Plan>, transposed: Vec<Plan>) {
    for s in transposed {
        let at = list
            .iter()
            .position(|o| o.estimate_ns > s.estimate_ns)
            .unwrap_or(list.len());
        list.insert(at, s);
    }
    list.truncate(MAX_SM90_PLANS + MAX_SM90_PLANS);
}

/// The transposed problem's plans on packed copies (of the operands misfitting there, plus
/// those at `misaligned` addresses, swapped), inserted into `h`, the direct packed plans, by
/// the rules `swapped_plans` keeps (`transposing_best`).
fn insert_swapped_packed(
    h: &mut Vec<Plan>,
    p: &GemmProblem,
    dev: &DeviceSpec,
    misaligned: pack::Which,
) {
    let best = transposing_best(h, p, dev);
    let swapped = swapped_with(p, dev, best, |t| {
        pack::hopper_packed_plans(t, dev, misaligned.swapped()).unwrap_or_default()
    });
    insert_by_estimate(h, swapped);
}

/// Whether `c`'s copies make `p` faster than the portable kernel (`pack::pays`, in `c`'s
/// orientation); false for a plan that copies nothing.
fn packing_pays(c: &Plan, p: &GemmProblem) -> bool {
    let q = if c.swap { p.transposed() } else { *p };
    c.pack.is_some_and(|s| pack::pays(&q, &s))
}

/// `direct_best`, but `None` (every transposed plan listed, ranked by estimate alone) where the
/// direct plans exist only through a transposed copy of B (`pack::needs_transpose`: tf32 NT
/// and TT): the swap margin covers the model's error between tilings of the two orientations,
/// not a copy the model counts, and before such copies TT's transposed plans were listed
/// without a rival (a review of session 56: with A off the grid, TT 4096³ went from the
/// transposed plan's 397 us to a direct one's 467, and a slab plan's 570 at 64 MiB).
fn transposing_best(direct: &[Plan], p: &GemmProblem, dev: &DeviceSpec) -> Option<DirectBest> {
    if pack::needs_transpose(p, pack::Operand::B) {
        None
    } else {
        direct_best(direct, p, dev)
    }
}

/// The direct plans' best estimates (`DirectBest`) a transposed plan is held against; None
/// without direct plans (every transposed plan is then listed).
fn direct_best(direct: &[Plan], p: &GemmProblem, dev: &DeviceSpec) -> Option<DirectBest> {
    let first = direct.first()?;
    Some(DirectBest {
        all: first.estimate_ns,
        plain: direct
            .iter()
            .find(|c| !cluster_hybrid(c, p, dev))
            .map_or(first.estimate_ns, |c| c.estimate_ns),
    })
}

/// Plans on copies of the operands whose lines start mid-sector (`pitch_packed_plans`): not
/// offered (the default), ranked among the others by the model's estimate with the copies'
/// cost (`DEEPGEMM_PACK_PITCH=1`), or put first wherever there are any (`=first`, to measure
/// what the copies buy before the model is trusted with them). Session 63 built it for the
/// general set's k = 8 mod 16 shapes (0.87x cuBLASLt in TN against 0.97x at k = 0 mod 16);
/// session 64 (`64a`, H100) measured `first` at 1.135x the default's time there (only
/// 5888x280x5640 gained, 0.80), and `1` ranks none of them first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PackPitch {
    Off,
    Ranked,
    First,
}

/// `DEEPGEMM_PACK_PITCH`, read once (`PackPitch`).
pub fn pack_pitch() -> PackPitch {
    static MODE: once_cell::sync::Lazy<PackPitch> = once_cell::sync::Lazy::new(|| {
        pack_pitch_from(std::env::var("DEEPGEMM_PACK_PITCH").ok().as_deref())
    });
    *MODE
}

fn pack_pitch_from(value: Option<&str>) -> PackPitch {
    match value.map(str::trim) {
        Some("1") => PackPitch::Ranked,
        Some("first") => PackPitch::First,
        _ => PackPitch::Off,
    }
}

/// Plans of `p` on copies of its operands whose lines start mid-sector (A's, B's, both: the
/// best `PITCH_PLANS` of each), each charged its copies; none where every line starts on a
/// sector. A copy costs ~(read + write) / 2.5 TB/s and a launch, so the model takes one where
/// the operand's L2 requests are many times its bytes: an operand re-read by many tiles (a
/// narrow B under many tile rows, 5888x280x5640) rather than a large one read twice.
pub fn pitch_packed_plans(p: &GemmProblem, dev: &DeviceSpec) -> Vec<Plan> {
    let off = pack::pitch_misfits(p);
    let only = |a: bool, b: bool| pack::Which { a, b, d: false };
    // A's copy, B's, both: each set of operands off the sectors once.
    let sets = [
        (off.a, only(true, false)),
        (off.b, only(false, true)),
        (off.a && off.b, off),
    ];
    let mut out: Vec<Plan> = Vec::new();
    for (_, which) in sets.into_iter().filter(|s| s.0) {
        if let Ok(plans) = pack::hopper_packed_plans(p, dev, which) {
            out.extend(plans.into_iter().take(PITCH_PLANS));
        }
    }
    out.sort_by_key(|c| c.estimate_ns);
    out
}

/// Plans of each set of copies `pitch_packed_plans` offers.
const PITCH_PLANS: usize = 2;

/// Whether calls with A or B off the 16-byte grid may run transposed on packed copies
/// (`candidates_for`): on unless `DEEPGEMM_SWAP_PACKED=0`. On by default since session 54
/// (gpu_pack's groups pass with it; decode with A 2 bytes off, 1x4096x4096 on an H100: 25.0 us
/// against 33.3 direct, aligned 20.5). Read once.
pub fn swap_packed() -> bool {
    static ON: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_SWAP_PACKED").map_or(true, |v| v.trim() != "0")
    });
    *ON
}

/// The Hopper plans of `p` computed transposed (`Plan::swap`: D^T = op(B)^T op(A)^T, each
/// operand keeping its majorness), given the best estimates of the direct plans (`None`: the
/// direct problem has no Hopper plan).
/// - A small m (decode-sized GEMMs in cuBLAS's column-major TN form put the tokens on m): all
///   of them, so the narrow tiles take it as n.
/// - No direct plan: all of them. tf32 TT (an N-major B, which tf32 wgmma cannot read) is NN
///   transposed, which the register-A kernel takes.
/// - Otherwise those the model puts SWAP_MARGIN (SWAP_MARGIN_ALIKE where the orientations are
///   alike, `swap_margin`) below the direct best: the tiles quantise the
///   other orientation better. Since the fill widths (`sm90::FILL_TILES`) that is mostly an
///   N-major B, which they cannot take: TT 3000x1000x4000 runs 128 tiles of 128x192 as NN
///   1000x3000 transposed (39.9 us on the H200), 96 of 128x256 as it is (47.7).
///
/// Empty when the transposed problem has no Hopper plan either (the TMA rules fail alike:
/// the same leading dimensions).
pub fn swapped_plans(
    p: &GemmProblem,
    dev: &DeviceSpec,
    direct_best: Option<DirectBest>,
) -> Vec<Plan> {
    swapped_with(p, dev, direct_best, |t| {
        hopper_plans(t, dev).unwrap_or_default()
    })
}

/// `swapped_plans` with the transposed problem's plans from `plans_of` (the Hopper plans, or
/// those on packed copies: `candidates_for`), kept by the same rules and marked swapped.
fn swapped_with(
    p: &GemmProblem,
    dev: &DeviceSpec,
    direct_best: Option<DirectBest>,
    plans_of: impl FnOnce(&GemmProblem) -> Vec<Plan>,
) -> Vec<Plan> {
    if p.m == p.n && direct_best.is_some() {
        return Vec::new(); // its own transpose, up to layouts
    }
    let t = p.transposed();
    let mut plans = plans_of(&t);
    match direct_best {
        Some(_) if p.m <= SWAP_MAX_M && p.m < p.n => {}
        Some(best) => {
            plans.retain(|s| {
                let against = if cluster_hybrid(s, &t, dev) {
                    best.all
                } else {
                    best.plain
                };
                (s.estimate_ns as f64) < against as f64 * (1.0 - swap_margin(p, s))
            });
        }
        None => {}
    }
    for plan in &mut plans {
        plan.swap = true;
    }
    plans
}

/// The best Hopper main-tile plan for `p`, or why there is none.
pub fn hopper(p: &GemmProblem, dev: &DeviceSpec) -> std::result::Result<Plan, String> {
    hopper_plans(p, dev).map(|plans| plans[0])
}

/// The most telling reason no sm90 variant takes `p`: the rule that failed for a variant of
/// the problem's types and layout, else the types or the layout themselves.
fn why_not_sm90(p: &GemmProblem) -> String {
    let same_types: Vec<sm90::Sm90Variant> = sm90::Sm90Variant::all_static()
        .iter()
        .filter(|v| v.ab == p.ab_type && v.cd == p.cd_type)
        .copied()
        .collect();
    if same_types.is_empty() || p.math != sm90::math_for(p.ab_type) {
        return format!(
            "{:?} -> {:?} ({:?}) has no sm90 kernel",
            p.ab_type, p.cd_type, p.math
        );
    }
    let reasons: Vec<String> = same_types.iter().filter_map(|v| v.check(p).err()).collect();
    same_types
        .iter()
        .filter(|v| v.leading_dims(p).is_ok())
        .find_map(|v| v.check(p).err())
        .or_else(|| reasons.into_iter().next())
        .unwrap_or_else(|| "no sm90 variant fits the device".into())
}

/// Every plan for `p` on `dev`, best first: the Hopper main-tile kernel where it applies
/// (it needs 16-byte aligned A and B at run time, see `Plan::accepts`), then the portable
/// kernel, which takes everything. When the Hopper kernel is refused only for A's or B's
/// strides, its plan on packed copies (`pack::hopper_packed`, which needs workspace) comes
/// first if packing pays (`pack::pays`), else after the portable plan.
pub fn candidates(p: &GemmProblem, dev: &DeviceSpec) -> Result<Vec<Plan>> {
    candidates_slabbed(p, dev, true)
}

/// `candidates`, with or without slab plans (`block_candidates`).
fn candidates_slabbed(p: &GemmProblem, dev: &DeviceSpec, slabs: bool) -> Result<Vec<Plan>> {
    if p.pointer_arrays {
        // Per-batch pointers only the portable kernel reads (no tensor map, pack or split
        // takes an array of addresses).
        return Ok(vec![portable(p, dev)?]);
    }
    let mut out = tile_candidates(p, dev, slabs)?;
    // Decode's shapes: the skinny kernel first where DEEPGEMM_SKINNY asks for it (`plan::skinny`).
    if !portable_only() {
        if let Some(s) = skinny::plan(p, dev) {
            out.insert(0, s);
        }
    }
    Ok(out)
}

/// Every plan for `p` on `dev` that runs with A and/or B at base addresses TMA cannot take
/// (`misaligned`: its A and B only), best first: the Hopper plans on packed copies of those
/// operands (and of any whose strides need it) where packing pays, then the same work in
/// blocks whose copies fit smaller workspaces (`slab::slab_plans`), then the portable plan;
/// where packing does not pay, the portable plan first. `candidates(p, dev)` when neither is
/// misaligned. What the heuristic lists under a MIN_ALIGNMENT_A/B_BYTES preference below 16,
/// and what a call at such addresses chooses from (`cache::choose_for_call`): before, such a
/// call could take whole copies only, and with less workspace than they need (PyTorch's 32
/// MiB against a 4097 x 4097 bf16 operand) ran the portable kernel.
pub fn candidates_for(
    p: &GemmProblem,
    dev: &DeviceSpec,
    misaligned: pack::Which,
) -> Result<Vec<Plan>> {
    candidates_with(p, dev, misaligned, true)
}

/// `candidates_for` without slab plans: what one block of a slab plan chooses from
/// (`slab::block_plan`, which never runs a slab plan inside a block). Planning a misfit
/// problem's slab levels is most of its planning (~90 block shapes for 4097³: ~10 ms of a
/// first call's CPU time, session 79), and each block of a slab plan planned them again.
pub fn block_candidates(
    p: &GemmProblem,
    dev: &DeviceSpec,
    misaligned: pack::Which,
) -> Result<Vec<Plan>> {
    candidates_with(p, dev, misaligned, false)
}

fn candidates_with(
    p: &GemmProblem,
    dev: &DeviceSpec,
    misaligned: pack::Which,
    slabs: bool,
) -> Result<Vec<Plan>> {
    let misaligned = pack::Which {
        d: false,
        ..misaligned
    };
    if p.pointer_arrays || (!misaligned.a && !misaligned.b) {
        return candidates_slabbed(p, dev, slabs);
    }
    let portable = portable(p, dev)?;
    if portable_only() {
        return Ok(vec![portable]);
    }
    let mut h = pack::hopper_packed_plans(p, dev, misaligned).unwrap_or_default();
    if swap_packed() {
        // The transposed problem on packed copies too, by the aligned list's rules
        // (`swapped_plans`): a small m with A off the grid (decode's activations) otherwise has
        // only 128-row tiles over its few rows.
        insert_swapped_packed(&mut h, p, dev, misaligned);
    }
    if h.is_empty() {
        return Ok(vec![portable]);
    }
    let pays = |c: &Plan| packing_pays(c, p);
    let mut out = Vec::with_capacity(h.len() + slab::MAX_SLAB_PLANS + 1);
    if pays(&h[0]) {
        // The slab levels sit below the least workspace of the direct plans: a transposed one
        // may need less (no copy of D that way round) and still be refused by the call's
        // pointers (`Plan::accepts`), which would leave no slab level between.
        let direct = h.iter().filter(|c| !c.swap).map(|c| c.workspace).min();
        let whole = direct
            .or_else(|| h.iter().map(|c| c.workspace).min())
            .unwrap_or(u64::MAX);
        out.extend(h);
        if slabs {
            out.extend(slab::slab_plans(p, dev, whole, misaligned));
        }
        out.push(portable);
    } else {
        out.push(portable);
        out.extend(h);
    }
    Ok(out)
}

/// Every plan a configured algo (cublasLtMatmulAlgoInit, then ConfigSetAttribute) may run for
/// `p` on `dev` with A and B at `misaligned` base addresses, best first: the heuristic's list
/// for those addresses (`candidates_for`, in its order), then, for operands TMA reads in place,
/// every other Hopper plan the list leaves out (each variant that takes the problem, ping-pong,
/// solo and 128-deep ones included, with each of its schedules, both orientations), by the
/// model's estimate. A call runs the first of them its configuration admits
/// (`algo::Config::admits`) that fits its workspace and pointers (`cache::for_call`).
pub fn configured_universe(
    p: &GemmProblem,
    dev: &DeviceSpec,
    misaligned: pack::Which,
) -> Result<Vec<Plan>> {
    let mut out = candidates_for(p, dev, misaligned)?;
    let hopper = dev.cc_major == 9 && dev.cc_minor == 0;
    if misaligned.a || misaligned.b || portable_only() || !hopper || p.pointer_arrays {
        return Ok(out);
    }
    let t = p.transposed();
    let mut wide: Vec<Plan> = every_hopper_plan(p, dev);
    wide.extend(every_hopper_plan(&t, dev).into_iter().map(|mut c| {
        c.swap = true;
        c
    }));
    // Stable: equal estimates keep the wider tile and the direct orientation first.
    wide.sort_by_key(|c| c.estimate_ns);
    let mut listed: std::collections::HashSet<Plan> = out.iter().copied().collect();
    for c in wide {
        if listed.insert(c) {
            out.push(c);
        }
    }
    Ok(out)
}

/// Each sm90 variant that takes `p` on `dev` (whatever the switches that keep some of them
/// from the heuristic's ranking; `DEEPGEMM_CLUSTER` and `DEEPGEMM_VARIANT` still narrow them)
/// with each of its schedules, unsorted.
fn every_hopper_plan(p: &GemmProblem, dev: &DeviceSpec) -> Vec<Plan> {
    // The tall tiles wherever they take the problem (not only off the 32-byte sectors, as
    // the heuristic ranks them), but not under `DEEPGEMM_TALL=0`.
    // The column-split tiles likewise, where `DEEPGEMM_COLSPLIT` lets them in.
    let variants = sm90::with_only(
        sm90::with_column_split(
            sm90::with_tall(
                sm90::fitting_with(p, dev, sm90::cluster_forced()),
                sm90::tall_mode().admitted(),
            ),
            sm90::column_split_mode().admitted(),
        ),
        sm90::variant_filter(),
    );
    let mut plans = Vec::new();
    for v in variants {
        let k_iters = p.k.div_ceil(v.block_k as u64).max(1);
        for (d, s) in streamk::every_decomposition(&v, p, dev) {
            plans.push(sm90_plan(v, d, k_iters, (s * 1e9) as u64));
        }
    }
    plans
}

/// `candidates` without the skinny kernel: the Hopper tile plans (direct, transposed, packed,
/// in slabs) and the portable plan.
fn tile_candidates(p: &GemmProblem, dev: &DeviceSpec, slabs: bool) -> Result<Vec<Plan>> {
    let mut out = Vec::with_capacity(MAX_SM90_PLANS + 1);
    let portable = portable(p, dev)?;
    if !portable_only() {
        if let Ok(h) = hopper_plans(p, dev) {
            // A and B as they are; D through an aligned copy first when its layout would cost
            // the TMA-store epilogue and the copy pays.
            if pack::d_misfit(p).is_some() {
                let none = pack::Which::NONE;
                if let Ok(hd) = pack::hopper_packed_plans(p, dev, none) {
                    out.extend(
                        hd.into_iter()
                            .filter(|c| c.pack.is_some_and(|s| s.d.is_some())),
                    );
                }
            }
            let best = direct_best(&h, p, dev);
            out.extend(h);
            // The transposed problem's plans go in by the model's estimate: before the first
            // plan modelled slower (D-copy plans lead whenever the copy pays, although their
            // estimate, which leaves out the general epilogue they avoid, is above the direct
            // plans'; a swapped narrow plan must still beat them on its own estimate).
            insert_by_estimate(&mut out, swapped_plans(p, dev, best));
            match pack_pitch() {
                PackPitch::Off => {}
                PackPitch::Ranked => insert_by_estimate(&mut out, pitch_packed_plans(p, dev)),
                PackPitch::First => {
                    out.splice(0..0, pitch_packed_plans(p, dev));
                    out.truncate(MAX_SM90_PLANS + MAX_SM90_PLANS);
                }
            }
        } else if let transposed @ [_, ..] = swapped_plans(p, dev, None).as_slice() {
            // No direct plan, but the transposed problem has one (tf32 TT).
            out.extend_from_slice(&transposed[..transposed.len().min(MAX_SM90_PLANS)]);
        } else if let Ok(mut h) = pack::hopper_packed_plans(p, dev, pack::Which::NONE) {
            if pack::needs_transpose(p, pack::Operand::B) {
                // tf32 NT (or TT with an operand TMA cannot read): B copied K-major, or the
                // problem computed transposed (NT: A copied K-major; TT: no transposed copy),
                // ranked by estimate (`transposing_best`).
                insert_swapped_packed(&mut h, p, dev, pack::Which::NONE);
            }
            if packing_pays(&h[0], p) {
                // Then the same work in blocks whose copies fit smaller workspaces.
                let whole = h.iter().map(|c| c.workspace).min().unwrap_or(u64::MAX);
                out.extend(h);
                if slabs {
                    out.extend(slab::slab_plans(p, dev, whole, pack::Which::NONE));
                }
                out.push(portable);
            } else {
                out.push(portable);
                out.extend(h);
            }
            return Ok(out);
        }
    }
    out.push(portable);
    Ok(out)
}

/// The best plan for `p` on `dev` when the pointers are not known yet (the heuristic).
pub fn choose(p: &GemmProblem, dev: &DeviceSpec) -> Result<Plan> {
    Ok(candidates(p, dev)?[0])
}

/// The plan a call without an algo runs (`gemm::run`): the first candidate that fits in
/// `workspace_size` bytes and accepts `ptrs`, among the candidates for A's and B's base
/// addresses (`candidates_for`: where TMA cannot take one, the Hopper kernel on packed copies
/// when the workspace holds them and packing pays, else in blocks whose copies fit, else the
/// portable plan, last, which needs no workspace and takes any pointer).
pub fn choose_for_call(
    p: &GemmProblem,
    dev: &DeviceSpec,
    ptrs: &GemmPointers,
    workspace_size: u64,
) -> Result<Plan> {
    let misaligned = pack::pointer_misfits(ptrs);
    choose_among(
        &candidates_for(p, dev, misaligned)?,
        p,
        dev,
        ptrs,
        workspace_size,
    )
}

/// `choose_for_call` over candidates computed before (`plan::cache` keeps them). A Hopper
/// candidate refused for A's or B's base address alone is followed by its plans on packed
/// copies (lists made for aligned addresses, e.g. a block's own, `slab::block_plan`).
pub fn choose_among(
    candidates: &[Plan],
    p: &GemmProblem,
    dev: &DeviceSpec,
    ptrs: &GemmPointers,
    workspace_size: u64,
) -> Result<Plan> {
    for &c in candidates {
        if c.workspace > workspace_size {
            continue;
        }
        if c.accepts(p, ptrs) {
            return Ok(c);
        }
        if c.swap {
            continue; // its packed alternatives are among the unswapped candidates
        }
        if let Kernel::Sm90(_) = c.kernel {
            let misaligned = pack::pointer_misfits(ptrs);
            if let Ok(plans) = pack::hopper_packed_plans(p, dev, misaligned) {
                for h in plans {
                    let pays = h.pack.is_some_and(|s| pack::pays(p, &s));
                    if pays && h.workspace <= workspace_size && h.accepts(p, ptrs) {
                        return Ok(h);
                    }
                }
            }
        }
    }
    Err(crate::error::Error::Internal(
        "no plan accepts the pointers (the portable plan should)".into(),
    ))
}

impl Plan {
    /// Whether this plan can run `p` (the caller's problem) with these pointers: TMA needs
    /// 16-byte aligned A and B, except for the operands the plan packs into the workspace
    /// first; a swapped problem's bias along n on a tile over 64 wide needs D through TMA, and
    /// C too unless beta = 0 on the host (`sm90::wide_bias_col_accepts`).
    pub fn accepts(&self, p: &GemmProblem, ptrs: &GemmPointers) -> bool {
        let swapped;
        let ptrs = if self.swap {
            swapped = ptrs.swapped();
            &swapped
        } else {
            ptrs
        };
        match self.kernel {
            Kernel::Portable(_) => true,
            // Each block chooses its plan with the pointers (`slab::block_plan`).
            Kernel::Sm90(_) if self.is_slabbed() => true,
            Kernel::Sm90(v) => {
                // The problem in the kernel's orientation, transposed only where it is read (for
                // a bias): the per-call path of a call without one copies nothing.
                let transposed = (self.swap && p.epilogue.bias).then(|| p.transposed());
                let kernel_problem = transposed.as_ref().unwrap_or(p);
                pack::accepts(self.pack.as_ref(), ptrs)
                    && !(self.swap && p.epilogue.bias && {
                        sm90::wide_bias_col(&v, kernel_problem)
                            && !sm90::wide_bias_col_accepts(&v, kernel_problem, ptrs)
                    })
            }
            Kernel::Pack(_) => false,
            Kernel::Skinny(_) => skinny::accepts(ptrs.a, ptrs.b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::problem::{MatrixSpec, OpSpec, aligned_ptrs};
    use crate::types::{compute_type::*, cuda_data_type::*};

    thread_local! {
        /// `hopper_plans_upto` calls on this thread (`planning_a_misfit_problem_is_bounded`).
        pub(super) static PLANNINGS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// What planning a problem whose operands TMA cannot read costs, in Hopper plannings: its
    /// list plans the slab levels' distinct block shapes once each (no second planning of a
    /// packed problem whose D copy does not pay), and a block's list (`block_candidates`,
    /// what each block of a slab plan chooses from at run time) plans no slab levels at all.
    /// Session 79 found each block planning its own slab levels (~90 block shapes a block)
    /// and every packed block planned twice: 4095³'s first call 115 ms of CPU.
    #[test]
    fn planning_a_misfit_problem_is_bounded() {
        let dev = DeviceSpec::H200;
        let count = |f: &dyn Fn()| {
            PLANNINGS.with(|n| n.set(0));
            f();
            PLANNINGS.with(|n| n.get())
        };
        let none = pack::Which::NONE;
        for m in [4095, 4097, 4100] {
            let mut op = OpSpec::new(COMPUTE_32F, R_32F);
            op.trans_a = 1;
            let a = MatrixSpec::col(R_16BF, m, m, m as i64);
            let d = MatrixSpec::col(R_16BF, m, m, m as i64);
            let p = GemmProblem::new(&op, &a, &a, &d, &d).unwrap();
            let listed = count(&|| {
                let c = candidates_for(&p, &dev, none).unwrap();
                assert!(c.iter().any(|c| c.is_slabbed()), "{m}: slab levels listed");
            });
            // 97-107 in session 79 (the distinct block shapes of ~40 cuts).
            assert!(
                (2..=150).contains(&listed),
                "{m}: {listed} plannings for the list"
            );
            let b = p.block(0, 2048, 0, 2048);
            let block = count(&|| {
                let c = block_candidates(&b, &dev, none).unwrap();
                assert!(
                    !c.iter().any(|c| c.is_slabbed()),
                    "{m}: a block lists no slab plan"
                );
            });
            assert!(block <= 3, "{m}: {block} plannings for a block's list");
        }
    }

    fn problem(m: u64, n: u64, k: u64, batch: i32, ab: i32, cd: i32, ct: i32) -> GemmProblem {
        let mut a = MatrixSpec::col(ab, m, k, m.max(1) as i64);
        let mut b = MatrixSpec::col(ab, k, n, k.max(1) as i64);
        let mut c = MatrixSpec::col(cd, m, n, m.max(1) as i64);
        for s in [&mut a, &mut b, &mut c] {
            s.batch_count = batch;
        }
        GemmProblem::new(&OpSpec::new(ct, R_32F), &a, &b, &c, &c).unwrap()
    }

    fn portable_variant(plan: &Plan) -> KernelVariant {
        match plan.kernel {
            Kernel::Portable(v) => v,
            k => panic!("not portable: {k:?}"),
        }
    }

    #[test]
    fn more_tile_rows_than_a_grid_holds_clamp_the_portable_grid() {
        // m = 2^38 (k = n = 1): 2^32 tile rows of 64, more than grid.x's 2^31 - 1; the
        // kernel walks them gridDim.x apart. (Planned only: no such buffer exists.)
        let p = problem(1 << 38, 1, 1, 1, R_16BF, R_16BF, COMPUTE_32F);
        let plan = portable(&p, &DeviceSpec::H200).unwrap();
        assert_eq!(plan.grid[0] as u64, MAX_GRID_X);
    }

    #[test]
    fn pack_pitch_values() {
        assert_eq!(pack_pitch_from(None), PackPitch::Off);
        assert_eq!(pack_pitch_from(Some("0")), PackPitch::Off);
        assert_eq!(pack_pitch_from(Some(" 1 ")), PackPitch::Ranked);
        assert_eq!(pack_pitch_from(Some("first")), PackPitch::First);
        assert_eq!(pack_pitch_from(Some("yes")), PackPitch::Off);
    }

    #[test]
    fn variant_names_are_unique_and_derived() {
        let all = KernelVariant::all();
        // 5 type pairs x 2 maths, each plain and with pointer arrays (GemmBatchedEx).
        assert_eq!(all.len(), 20);
        assert_eq!(all.iter().filter(|v| v.pointer_arrays).count(), 10);
        let mut names: Vec<String> = all.iter().map(|v| v.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len());
        assert_eq!(
            KernelVariant::portable(ScalarType::BF16, ScalarType::F32, Math::Mma).name(),
            "dg_portable_bf16_f32_mma_m64n64k32_t128"
        );
        let arrays = KernelVariant {
            pointer_arrays: true,
            ..KernelVariant::portable(ScalarType::BF16, ScalarType::F32, Math::Mma)
        };
        assert_eq!(arrays.name(), "dg_portable_bf16_f32_mma_m64n64k32_t128_pa");
        for n in &names {
            assert!(n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
        }
    }

    #[test]
    fn arch_strings() {
        assert_eq!(DeviceSpec::H200.arch(), "sm_90a");
        assert_eq!(DeviceSpec::A100.arch(), "sm_80");
        assert_eq!(DeviceSpec::T4.arch(), "sm_75");
        // Blackwell has no wgmma: its own targets, no `a`, and the portable kernels
        // (tests/nvrtc_compile.rs compiles them for sm_100 and sm_120).
        assert_eq!(DeviceSpec::B200.arch(), "sm_100");
        assert_eq!(
            DeviceSpec {
                cc_major: 12,
                ..DeviceSpec::B200
            }
            .arch(),
            "sm_120"
        );
    }

    #[test]
    fn every_problem_gets_a_compiled_variant_on_every_arch() {
        let all = KernelVariant::all();
        for dev in [
            DeviceSpec::H200,
            DeviceSpec::A100,
            DeviceSpec::T4,
            DeviceSpec::B200,
        ] {
            for (ab, cd, ct) in [
                (R_32F, R_32F, COMPUTE_32F),
                (R_32F, R_32F, COMPUTE_32F_FAST_TF32),
                (R_16F, R_16F, COMPUTE_32F),
                (R_16F, R_32F, COMPUTE_32F),
                (R_16BF, R_16BF, COMPUTE_32F),
                (R_16BF, R_32F, COMPUTE_32F),
            ] {
                let p = problem(100, 50, 30, 1, ab, cd, ct);
                let plan = portable(&p, &dev).unwrap();
                let v = portable_variant(&plan);
                assert!(all.contains(&v), "{v:?}");
                assert_eq!(v.needs_mma(), dev.has_mma_sync() && p.math != Math::Ffma);
                assert_eq!(plan.block, v.threads);
            }
        }
        let old = DeviceSpec {
            partial: false,
            cc_major: 7,
            cc_minor: 0,
            ..DeviceSpec::T4
        };
        assert!(matches!(
            choose(&problem(8, 8, 8, 1, R_32F, R_32F, COMPUTE_32F), &old),
            Err(Error::NotSupported(_))
        ));
    }

    #[test]
    fn grid_covers_the_output_and_respects_limits() {
        for (m, n, batch) in [
            (1, 1, 1),
            (64, 64, 1),
            (65, 4097, 3),
            (1, 10_000_000, 70_000),
        ] {
            let p = problem(m, n, 1, batch, R_16BF, R_16BF, COMPUTE_32F);
            let plan = portable(&p, &DeviceSpec::H200).unwrap();
            let t = portable_variant(&plan).tile;
            assert!(plan.grid[0] as u64 * t.m as u64 >= m);
            assert!(plan.grid.iter().all(|&g| g >= 1));
            assert!(plan.grid[1] as u64 <= MAX_GRID_Y && plan.grid[2] as u64 <= MAX_GRID_Z);
            // Below the caps the grid is exact; above, kernels loop.
            let n_tiles = n.div_ceil(t.n as u64);
            assert_eq!(plan.grid[1] as u64, n_tiles.min(MAX_GRID_Y));
            assert_eq!(plan.grid[2] as u64, (batch as u64).min(MAX_GRID_Z));
        }
    }

    #[test]
    fn hopper_first_where_it_applies_portable_always_last() {
        let p = problem(4096, 4096, 4096, 1, R_16BF, R_16BF, COMPUTE_32F);
        let c = candidates(&p, &DeviceSpec::H200).unwrap();
        assert!(c.len() >= 2 && c.len() <= MAX_SM90_PLANS + 1);
        let (last, sm90_plans) = c.split_last().unwrap();
        assert!(matches!(last.kernel, Kernel::Portable(_)));
        assert!(
            sm90_plans
                .iter()
                .all(|p| matches!(p.kernel, Kernel::Sm90(_)))
        );
        // Ranked by the cost model, each a distinct algo.
        assert!(
            sm90_plans
                .windows(2)
                .all(|w| w[0].estimate_ns <= w[1].estimate_ns)
        );
        let mut names: Vec<String> = c.iter().map(|p| p.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), c.len());
        assert_eq!(c[0].block, sm90::THREADS);
        assert!(c[0].grid[0] >= 1 && c[0].grid[0] <= 132, "persistent grid");
        // Other architectures, fp32 and k = 0 get the portable kernel only.
        for (dev, q) in [
            (DeviceSpec::A100, p),
            (DeviceSpec::B200, p),
            (
                DeviceSpec::H200,
                problem(64, 64, 64, 1, R_32F, R_32F, COMPUTE_32F),
            ),
            (
                DeviceSpec::H200,
                problem(64, 64, 0, 1, R_16F, R_16F, COMPUTE_32F),
            ),
        ] {
            let c = candidates(&q, &dev).unwrap();
            assert_eq!(c.len(), 1, "{dev:?} {q:?}");
            assert!(matches!(c[0].kernel, Kernel::Portable(_)));
        }
        // An odd leading dimension breaks TMA's 16-byte rule: the reason says so.
        let mut a = MatrixSpec::col(R_16F, 100, 64, 101);
        a.ld = 101;
        let b = MatrixSpec::col(R_16F, 64, 80, 64);
        let cc = MatrixSpec::col(R_16F, 100, 80, 100);
        let q = GemmProblem::new(&OpSpec::new(COMPUTE_32F, R_32F), &a, &b, &cc, &cc).unwrap();
        let why = hopper(&q, &DeviceSpec::H200).unwrap_err();
        assert!(why.contains("16 bytes"), "{why}");
    }

    #[test]
    fn tf32_goes_to_hopper_when_b_is_k_major_else_portable_with_a_reason() {
        let dev = DeviceSpec::H200;
        let tf32 = |ta: i32, tb: i32| {
            let mut op = OpSpec::new(COMPUTE_32F_FAST_TF32, R_32F);
            op.trans_a = ta;
            op.trans_b = tb;
            let a = MatrixSpec::col(R_32F, 512, 512, 512);
            GemmProblem::new(&op, &a, &a, &a, &a).unwrap()
        };
        // TN: the tf32 main-tile kernel first, the portable tf32 kernel after it.
        let c = candidates(&tf32(1, 0), &dev).unwrap();
        assert!(c.len() >= 2);
        match c[0].kernel {
            Kernel::Sm90(v) => assert!(v.name().starts_with("dg_sm90_f32_f32_tn_"), "{v:?}"),
            k => panic!("not sm90: {k:?}"),
        }
        assert_eq!(portable_variant(c.last().unwrap()).math, Math::MmaTf32);
        // NN (PyTorch's fp32 matmul): the register-A tf32 kernel first.
        let c = candidates(&tf32(0, 0), &dev).unwrap();
        match c[0].kernel {
            Kernel::Sm90(v) => assert!(v.name().starts_with("dg_sm90_f32_f32_nn_"), "{v:?}"),
            k => panic!("not sm90: {k:?}"),
        }
        // TT and NT (an N-major B): no direct plan, and the log says why.
        for (ta, tb) in [(1, 1), (0, 1)] {
            let why = hopper(&tf32(ta, tb), &dev).unwrap_err();
            assert!(why.contains("reads B K-major only"), "{why}");
        }
        // TT transposed is NN: the register-A kernel on the swapped problem, then portable.
        let c = candidates(&tf32(1, 1), &dev).unwrap();
        assert!(c.len() >= 2);
        match c[0].kernel {
            Kernel::Sm90(v) => assert!(v.name().starts_with("dg_sm90_f32_f32_nn_"), "{v:?}"),
            k => panic!("not sm90: {k:?}"),
        }
        assert!(c[..c.len() - 1].iter().all(|p| p.swap));
        assert_eq!(portable_variant(c.last().unwrap()).math, Math::MmaTf32);
        // NT transposed is NT again (both operands M/N-major): B copied K-major into the
        // workspace (or A, computed transposed), then the register-A kernel; portable last.
        for (m, n, k) in [
            (512, 512, 1024),
            (256, 2048, 1024),
            (2048, 256, 1024),
            (1024, 4096, 8192),
        ] {
            let mut op = OpSpec::new(COMPUTE_32F_FAST_TF32, R_32F);
            op.trans_b = 1;
            let a = MatrixSpec::col(R_32F, m, k, m as i64);
            let b = MatrixSpec::col(R_32F, n, k, n as i64);
            let d = MatrixSpec::col(R_32F, m, n, m as i64);
            let p = GemmProblem::new(&op, &a, &b, &d, &d).unwrap();
            let c = candidates(&p, &dev).unwrap();
            assert!(c.len() >= 2, "{m}x{n}");
            assert_eq!(portable_variant(c.last().unwrap()).math, Math::MmaTf32);
            let first = c[0];
            match first.kernel {
                Kernel::Sm90(v) => assert!(v.name().starts_with("dg_sm90_f32_f32_nn_"), "{v:?}"),
                k => panic!("not sm90: {k:?}"),
            }
            let spec = first.pack.expect("a transposed copy");
            assert!(spec.a.is_none() && spec.d.is_none(), "{m}x{n}: {spec:?}");
            let o = spec.b.unwrap();
            assert!(o.transposed && o.major == sm90::Major::K, "{o:?}");
            assert_eq!(o.inner, k);
            // The copied operand is the caller's B direct, A transposed.
            assert_eq!(o.outer, if first.swap { m } else { n }, "{m}x{n}");
            assert!(first.workspace >= spec.workspace_bytes());
            // Each Hopper plan copies B transposed, whole or block by block (slab plans, for
            // workspaces smaller than the whole copy).
            for h in &c[..c.len() - 1] {
                let whole = h.pack.is_some_and(|s| s.b.is_some_and(|b| b.transposed));
                assert!(whole || h.is_slabbed(), "{}", h.name());
            }
            // The smaller operand is the one copied where the tiles allow it.
            if m != n {
                assert_eq!(first.swap, m < n, "{m}x{n}: {}", first.name());
            }
            // Without workspace for the copy: the portable kernel.
            let ptrs = aligned_ptrs();
            let chosen = choose_for_call(&p, &dev, &ptrs, 0).unwrap();
            assert!(matches!(chosen.kernel, Kernel::Portable(_)));
            let chosen = choose_for_call(&p, &dev, &ptrs, first.workspace).unwrap();
            assert_eq!(chosen, first);
        }
        // TT with an operand TMA cannot read: the transposed problem (NN, no transposed copy)
        // is ranked by estimate against the direct plans that copy B transposed, not held to
        // the swap margin (session 56's review: the direct 4096³ plan of both copies, 467 us,
        // had displaced the transposed one, 397).
        let tt = |lda: i64| {
            let mut op = OpSpec::new(COMPUTE_32F_FAST_TF32, R_32F);
            op.trans_a = 1;
            op.trans_b = 1;
            let a = MatrixSpec::col(R_32F, 4096, 4096, lda);
            let d = MatrixSpec::col(R_32F, 4096, 4096, 4096);
            GemmProblem::new(&op, &a, &d, &d, &d).unwrap()
        };
        let a_off = pack::Which {
            a: true,
            b: false,
            d: false,
        };
        for (p, misaligned) in [(tt(4096), a_off), (tt(4097), pack::Which::NONE)] {
            let c = candidates_for(&p, &dev, misaligned).unwrap();
            assert!(c[0].swap, "{}", c[0].name());
            let spec = c[0].pack.unwrap();
            assert!(spec.operands().all(|(_, o)| !o.transposed), "{spec:?}");
            assert!(
                c.iter()
                    .any(|h| !h.swap && h.pack.is_some_and(|s| s.b.is_some()))
            );
        }
        // Exact fp32 names its math.
        let exact = problem(64, 64, 64, 1, R_32F, R_32F, COMPUTE_32F);
        let why = hopper(&exact, &dev).unwrap_err();
        assert!(
            why.contains("Ffma") && why.contains("no sm90 kernel"),
            "{why}"
        );
    }

    #[test]
    fn sm90_plans_need_aligned_a_and_b_pointers() {
        let p = problem(256, 256, 256, 1, R_16BF, R_16BF, COMPUTE_32F);
        let h = choose(&p, &DeviceSpec::H200).unwrap();
        let mut ptrs = aligned_ptrs();
        assert!(h.accepts(&p, &ptrs));
        ptrs.a += 2; // element-aligned, not 16-byte aligned
        assert!(!h.accepts(&p, &ptrs));
        assert!(portable(&p, &DeviceSpec::H200).unwrap().accepts(&p, &ptrs));
    }

    #[test]
    fn algo_round_trip_and_rejection() {
        let dev = DeviceSpec::H200;
        let p = problem(304, 200, 128, 1, R_16F, R_32F, COMPUTE_32F);
        let all = candidates(&p, &dev).unwrap();
        assert!(all.len() >= 2);
        for plan in &all {
            let algo = plan.to_algo();
            assert_eq!(Plan::from_algo(&algo, &p, &dev).unwrap(), *plan);
            let mut bad = algo;
            bad[0] ^= 1;
            assert!(matches!(
                Plan::from_algo(&bad, &p, &dev),
                Err(Error::InvalidValue(_))
            ));
            let mut bad = algo;
            bad[1] ^= 1;
            assert!(matches!(
                Plan::from_algo(&bad, &p, &dev),
                Err(Error::InvalidValue(_))
            ));
            assert!(plan.waves(&dev) > 0.0);
        }
        // An algo for another problem (other types) is refused, not launched.
        let q = problem(304, 200, 128, 1, R_16BF, R_16BF, COMPUTE_32F);
        for plan in &all {
            assert!(matches!(
                Plan::from_algo(&plan.to_algo(), &q, &dev),
                Err(Error::InvalidValue(_))
            ));
        }
    }
    /// cuBLAS column-major TN: A stored k x m, B k x n (both K-major), C/D m x n.
    fn tn(m: u64, n: u64, k: u64, epilogue: i32) -> GemmProblem {
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = 1;
        op.epilogue = epilogue;
        let a = MatrixSpec::col(R_16BF, k, m, k as i64);
        let b = MatrixSpec::col(R_16BF, k, n, k as i64);
        let c = MatrixSpec::col(R_16BF, m, n, m as i64);
        GemmProblem::new(&op, &a, &b, &c, &c).unwrap()
    }

    /// bf16 in and out, cuBLAS column-major with op(A) = A^T where `ta`, op(B) = B^T where `tb`.
    fn bf16_layout(m: u64, n: u64, k: u64, ta: bool, tb: bool) -> GemmProblem {
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = ta as i32;
        op.trans_b = tb as i32;
        let a = match ta {
            true => MatrixSpec::col(R_16BF, k, m, k as i64),
            false => MatrixSpec::col(R_16BF, m, k, m as i64),
        };
        let b = match tb {
            true => MatrixSpec::col(R_16BF, n, k, n as i64),
            false => MatrixSpec::col(R_16BF, k, n, k as i64),
        };
        let c = MatrixSpec::col(R_16BF, m, n, m as i64);
        GemmProblem::new(&op, &a, &b, &c, &c).unwrap()
    }

    #[test]
    fn short_k_few_tiles_run_solo_64x64() {
        use crate::types::epilogue::DEFAULT;
        let dev = DeviceSpec::H200;
        let first = |p: &GemmProblem| {
            let c = candidates(p, &dev).unwrap();
            match c[0].kernel {
                Kernel::Sm90(v) => (v, c[0].decomposition, c.len()),
                _ => panic!("{c:?}"),
            }
        };
        // 36 tiles of 64x64, 12 k-iterations: solo first, data-parallel, 256 threads, the
        // full ring (128-deep stages, one CTA an SM).
        let (v, d, n) = first(&tn(352, 344, 712, DEFAULT));
        assert!(v.solo() && (v.block_m, v.block_n) == (64, 64) && d.is_data_parallel());
        assert!(v.deep() && v.ctas_per_sm() == 1, "{v:?}");
        assert!(n >= 2);
        let c = candidates(&tn(352, 344, 712, DEFAULT), &dev).unwrap();
        assert_eq!(c[0].block, 256);
        assert!(matches!(c[1].kernel, Kernel::Sm90(w) if !w.solo()));
        // NT too (both operands MN-major).
        let (v, _, _) = first(&bf16_layout(656, 288, 560, false, true));
        assert!(v.solo() && v.block_n == 64, "{v:?}");
        // 64 k-iterations: still solo; 65, or more 64x64 tiles than SMs (150), or a large
        // shape: not solo.
        let (v, _, _) = first(&tn(352, 344, 4096, DEFAULT));
        assert!(v.solo() && v.block_n == 64, "{v:?}");
        for p in [
            tn(416, 344, 4104, DEFAULT),
            tn(272, 1904, 944, DEFAULT),
            tn(4096, 4096, 4096, DEFAULT),
        ] {
            let (v, _, _) = first(&p);
            assert!(!v.solo(), "{}x{}x{}: {v:?}", p.m, p.n, p.k);
        }
    }

    /// At most 64 rows and one 64-k slab: the 64-deep (half-ring) solo 64x64 first,
    /// data-parallel, in every layout; 65 rows or 65 k-values: not.
    #[test]
    fn tiny_m_one_slab_runs_solo_64x64() {
        use crate::types::epilogue::DEFAULT;
        let dev = DeviceSpec::H200;
        let first = |p: &GemmProblem| match candidates(p, &dev).unwrap()[0] {
            Plan {
                kernel: Kernel::Sm90(v),
                decomposition,
                ..
            } => (v, decomposition),
            ref x => panic!("{x:?}"),
        };
        for p in [
            tn(32, 464, 40, DEFAULT),
            tn(64, 64, 64, DEFAULT),
            tn(8, 2096, 16, DEFAULT),
            bf16_layout(40, 104, 32, false, false),
            bf16_layout(16, 1592, 8, false, true),
        ] {
            let (v, d) = first(&p);
            assert!(
                v.solo() && !v.deep() && (v.block_m, v.block_n) == (64, 64),
                "{}x{}x{}: {v:?}",
                p.m,
                p.n,
                p.k
            );
            assert!(d.is_data_parallel());
        }
        for p in [tn(65, 64, 64, DEFAULT), tn(64, 64, 65, DEFAULT)] {
            let (v, _) = first(&p);
            assert!(!v.solo(), "{}x{}x{}: {v:?}", p.m, p.n, p.k);
        }
    }

    #[test]
    fn few_tiles_long_k_run_solo_64x64_split() {
        use crate::types::epilogue::DEFAULT;
        let dev = DeviceSpec::H200;
        // 9 x 3 tiles of 64x64, 45 k-iterations of 128: the full-ring solo 64x64 first, its
        // tiles split (with workspace), the model's first plan second; also with m < 256.
        for p in [tn(552, 168, 5656, DEFAULT), tn(96, 528, 3960, DEFAULT)] {
            let c = candidates(&p, &dev).unwrap();
            let Kernel::Sm90(v) = c[0].kernel else {
                panic!("{c:?}")
            };
            let k_iters = p.k.div_ceil(128);
            assert!(
                v.solo() && v.deep() && (v.block_m, v.block_n) == (64, 64),
                "{v:?}"
            );
            assert!(c[0].decomposition.splits_tiles(k_iters) && c[0].workspace > 0);
            assert_eq!(c[0].estimate_ns, c[1].estimate_ns);
            assert!(matches!(c[1].kernel, Kernel::Sm90(w) if !w.solo()));
            // The heuristic's algo for it runs exactly that plan.
            assert_eq!(Plan::from_algo(&c[0].to_algo(), &p, &dev).unwrap(), c[0]);
        }
        // More than 36 tiles, a short k, decode (m < 96), a large shape: not split solo.
        for p in [
            tn(448, 424, 4632, DEFAULT),
            tn(368, 384, 2944, DEFAULT),
            tn(64, 512, 8192, DEFAULT),
            tn(16, 2048, 8192, DEFAULT),
            tn(4096, 4096, 4096, DEFAULT),
        ] {
            let c = candidates(&p, &dev).unwrap();
            let split_solo = matches!(c[0].kernel, Kernel::Sm90(v) if v.solo())
                && !c[0].decomposition.is_data_parallel();
            assert!(!split_solo, "{}x{}x{}: {:?}", p.m, p.n, p.k, c[0]);
        }
    }

    /// tf32 TN's solo tiles by default only through `solo_for_short` (`solo_tf32`): short-k
    /// shapes of the 16-bit rule's bounds get the solo 64x64 first and unsplit; shapes the split
    /// rule moves in 16-bit keep their 128-row plans in tf32, the solo tiles not even among
    /// their candidates.
    #[test]
    fn tf32_solo_tiles_only_for_short_k_by_default() {
        // The switches are read once a process: this checks the default only.
        if ["DEEPGEMM_SOLO", "DEEPGEMM_SOLO_TF32"]
            .iter()
            .any(|v| std::env::var(v).is_ok())
        {
            return;
        }
        let dev = DeviceSpec::H200;
        let tf32 = |m: u64, n: u64, k: u64| {
            let mut op = OpSpec::new(COMPUTE_32F_FAST_TF32, R_32F);
            op.trans_a = 1;
            let a = MatrixSpec::col(R_32F, k, m, k as i64);
            let b = MatrixSpec::col(R_32F, k, n, k as i64);
            let d = MatrixSpec::col(R_32F, m, n, m as i64);
            GemmProblem::new(&op, &a, &b, &d, &d).unwrap()
        };
        let solo = |x: &Plan| matches!(x.kernel, Kernel::Sm90(v) if v.solo());
        for p in [
            tf32(400, 656, 776),
            tf32(512, 512, 512),
            tf32(528, 632, 1136),
        ] {
            let c = candidates(&p, &dev).unwrap();
            assert!(
                solo(&c[0]) && c[0].decomposition.is_data_parallel(),
                "{}x{}x{}: {:?}",
                p.m,
                p.n,
                p.k,
                c[0]
            );
        }
        for p in [
            tf32(552, 168, 5656),
            tf32(368, 360, 11072),
            tf32(128, 128, 4096),
        ] {
            let c = candidates(&p, &dev).unwrap();
            assert!(
                c.iter().all(|x| !solo(x)),
                "{}x{}x{}: {:?}",
                p.m,
                p.n,
                p.k,
                c[0]
            );
        }
    }

    #[test]
    fn narrow_one_wave_plans_run_as_pingpong_64x128() {
        use crate::types::epilogue::DEFAULT;
        let dev = DeviceSpec::H200;
        let variant = |plan: &Plan| match plan.kernel {
            Kernel::Sm90(v) => Some(v),
            _ => None,
        };
        // 126 tiles either way: the ping-pong 64x128 first, the 128x64 plan second.
        let c = candidates(&tn(888, 1128, 864, DEFAULT), &dev).unwrap();
        let (first, second) = (variant(&c[0]).unwrap(), variant(&c[1]).unwrap());
        assert!(
            first.pingpong() && (first.block_m, first.block_n) == (64, 128),
            "{c:?}"
        );
        assert!(c[0].decomposition.is_data_parallel() && !c[0].swap);
        assert_eq!((second.block_m, second.block_n), (128, 64));
        assert_eq!(c[0].estimate_ns, c[1].estimate_ns);
        // n = 64: 64x128 tiles would pad it to twice the area (112 tiles against 56).
        let c = candidates(&tn(7168, 64, 2048, DEFAULT), &dev).unwrap();
        let first = variant(&c[0]).unwrap();
        assert!(
            !first.pingpong() && (first.block_m, first.block_n) == (128, 64),
            "{c:?}"
        );
        // No ping-pong tile where the first plan is not 128x64 (set A's 128x256).
        let c = candidates(&tn(4096, 4096, 4096, DEFAULT), &dev).unwrap();
        assert!(c.iter().filter_map(variant).all(|v| !v.pingpong()));
        let first = |m, n, k, ta, tb| {
            let c = candidates(&bf16_layout(m, n, k, ta, tb), &dev).unwrap();
            (variant(&c[0]).unwrap(), c[0].swap)
        };
        // One tile row either way (m or n at most 128): kept 128x64.
        for (m, n, ta, tb) in [(128, 7168, true, false), (7168, 128, false, true)] {
            let (v, _) = first(m, n, 2048, ta, tb);
            assert!(
                !v.pingpong() && (v.block_m, v.block_n) == (128, 64),
                "{m}x{n}: {v:?}"
            );
        }
        // 98 tiles of 128x64 against 112 of 64x128: moved for NN (A MN-major) only.
        let (v, swap) = first(1760, 408, 2496, false, false);
        assert!(v.pingpong() && v.block_n == 128 && !swap, "{v:?}");
        let (v, _) = first(1760, 408, 2496, false, true);
        assert!(
            !v.pingpong() && (v.block_m, v.block_n) == (128, 64),
            "{v:?}"
        );
        // TT computed as is (A K-major, B MN-major): kept 128x64; the same tile counts in TN
        // and NT are moved.
        let (v, swap) = first(888, 1128, 864, true, true);
        assert!(!swap && (v.major_a, v.major_b) == (sm90::Major::K, sm90::Major::MN));
        assert!(
            !v.pingpong() && (v.block_m, v.block_n) == (128, 64),
            "{v:?}"
        );
        let (v, _) = first(888, 1128, 864, false, true);
        assert!(v.pingpong() && v.block_n == 128, "{v:?}");
    }

    #[test]
    fn transposed_problem_is_the_same_product() {
        use crate::problem::{GemmPointers, Scalar};
        let p = tn(3, 4096, 1024, crate::types::epilogue::GELU_BIAS);
        let t = p.transposed();
        assert_eq!((t.m, t.n, t.k), (4096, 3, 1024));
        // op(A^T)(j, kk) = op(B)(kk, j) and so on: every stride pair exchanged.
        assert_eq!((t.a.row, t.a.col), (p.b.col, p.b.row));
        assert_eq!((t.b.row, t.b.col), (p.a.col, p.a.row));
        assert_eq!((t.d.row, t.d.col), (p.d.col, p.d.row));
        assert_eq!(t.extent[0], p.extent[1]);
        assert!(t.bias_along_n && !p.bias_along_n);
        assert_eq!(t.transposed(), p, "an involution");
        let ptrs = GemmPointers {
            alpha: Scalar::Host(1.0),
            beta: Scalar::Host(0.0),
            a: 0x1000,
            b: 0x2000,
            c: 0x3000,
            d: 0x3000,
            bias: 0x4000,
        };
        let s = ptrs.swapped();
        assert_eq!((s.a, s.b, s.d, s.bias), (0x2000, 0x1000, 0x3000, 0x4000));
        // Both operands stay K-major, so the narrow tiles (K-major B only) take it; the
        // column bias keeps D off the TMA-store epilogue.
        assert!(sm90::tma_store(&t, 0x1000, Scalar::Host(0.0)).is_err());
        // ... and to tiles whose epilogue can add it (at most 64 wide).
        let plans = hopper_plans(&t, &DeviceSpec::H200).unwrap();
        assert!(plans.iter().all(|pl| match pl.kernel {
            Kernel::Sm90(v) => v.block_n <= sm90::MAX_BIAS_ALONG_N_TILE,
            _ => false,
        }));
    }

    #[test]
    fn transposed_plans_are_held_against_the_plain_direct_plans() {
        // Session 48 (H200, TT): where a transposed plain plan was first, a direct hybrid over
        // clusters the model puts slower does not take its place by the swap margin
        // (6024x2136x8992 ran 1.13x the time on it, `48c`); where the cluster hybrid models
        // far below everything, it is first (2904x1496x13976 175.2 us against 205.5 on the
        // transposed 128x160 clusters, 6896x2520x8776 403.1 against 450.7 on 2 x 2, `48b`).
        let dev = DeviceSpec::H200;
        let tt = |m, n, k| crate::problem::dense_bf16(m, n, k, 1, 1);
        let first = |m, n, k| tile_candidates(&tt(m, n, k), &dev, true).unwrap()[0];
        let c = first(6024, 2136, 8992);
        assert!(
            c.swap && !cluster_hybrid(&c, &tt(6024, 2136, 8992).transposed(), &dev),
            "{}",
            c.name()
        );
        let c = first(6896, 2520, 8776);
        assert!(
            !c.swap && cluster_hybrid(&c, &tt(6896, 2520, 8776), &dev),
            "6896x2520x8776: {}",
            c.name()
        );
        // Since session 78 the NN column split (transposed) beats that hybrid at 2904x1496x13976:
        // 175.1 us against 183.3 on an H100 (`78a`), and the model ranks it first.
        let c = first(2904, 1496, 13976);
        assert!(
            c.swap && matches!(c.kernel, Kernel::Sm90(v) if v.column_split()),
            "{}",
            c.name()
        );
    }

    #[test]
    fn small_m_goes_swapped_to_narrow_tiles() {
        let dev = DeviceSpec::H200;
        let narrow = |plan: &Plan| match plan.kernel {
            Kernel::Sm90(v) => v.block_n <= 32,
            _ => false,
        };
        // Decode shapes (the small-M set of issue 4 and gpu_matmul's narrow_and_swapped): the
        // model ranks a swapped narrow-tile plan first (after the skinny kernel's where
        // DEEPGEMM_SKINNY plans it).
        for (m, n, k) in [(1, 4096, 4096), (16, 14336, 4096)] {
            let c =
                tile_candidates(&tn(m, n, k, crate::types::epilogue::DEFAULT), &dev, true).unwrap();
            assert!(c[0].swap && narrow(&c[0]), "{m}x{n}x{k}: {}", c[0].name());
            assert!(c[0].name().contains("+swap"));
            let all = candidates(&tn(m, n, k, crate::types::epilogue::DEFAULT), &dev).unwrap();
            let skinny_first = skinny::mode() != skinny::Mode::Never;
            assert_eq!(all[skinny_first as usize..], c[..]);
        }
        // Where n alone fills the SMs with narrow tiles, unswapped ones (one m-tile, A's few
        // rows zero-filled by TMA) model about as well; either way a narrow tile, and the
        // swapped plans are among the candidates.
        for (m, n, k) in [(3, 2112, 1000), (16, 1000, 4096)] {
            let c =
                tile_candidates(&tn(m, n, k, crate::types::epilogue::DEFAULT), &dev, true).unwrap();
            assert!(narrow(&c[0]), "{m}x{n}x{k}: {}", c[0].name());
            assert!(c.iter().any(|p| p.swap), "{m}x{n}x{k}");
        }
        // m = 64 against a few thousand n: swapped plans first (their tiles are full; the
        // unswapped narrow ones would be half empty along m and ran 1.3-1.6x slower than
        // modelled in the session-4 sweeps, which `streamk::estimate_s` now charges).
        for (m, n, k) in [(64, 2112, 7168), (64, 4096, 7168), (64, 4096, 4096)] {
            let c =
                tile_candidates(&tn(m, n, k, crate::types::epilogue::DEFAULT), &dev, true).unwrap();
            assert!(c[0].swap, "{m}x{n}x{k}: {}", c[0].name());
        }
        // A swapped m = 64 whose weights (A, 29 MB) two 32-wide tile columns would each
        // stream: one 64-wide column instead (session 12, 12b: 15.8 us against 18.7 on
        // 128x32), and likewise unswapped for the transposed shape.
        for (m, n, k, swap) in [(64, 7168, 2048, true), (7168, 64, 2048, false)] {
            let c =
                tile_candidates(&tn(m, n, k, crate::types::epilogue::DEFAULT), &dev, true).unwrap();
            match c[0].kernel {
                Kernel::Sm90(v) => assert_eq!((c[0].swap, v.block_n), (swap, 64), "{m}x{n}x{k}"),
                k => panic!("not sm90: {k:?}"),
            }
        }
        // A small n takes the narrow tiles as it is.
        for (m, n, k) in [(4096, 1, 4096), (1000, 16, 2048)] {
            let c =
                tile_candidates(&tn(m, n, k, crate::types::epilogue::DEFAULT), &dev, true).unwrap();
            assert!(!c[0].swap && narrow(&c[0]), "{m}x{n}x{k}: {}", c[0].name());
        }
        // Large m: swapped only where the transposed tiles quantise clearly better. A square
        // is its own transpose; 1000 x 3000 fills 128 tiles of 128x192, and 3000 x 1000 (TN)
        // 120 tiles of 128x208 as it is.
        for (m, n, k) in [
            (4096, 4096, 4096),
            (1000, 3000, 4000),
            (3000, 1000, 4000),
            (4096, 14336, 4096),
        ] {
            let c =
                tile_candidates(&tn(m, n, k, crate::types::epilogue::DEFAULT), &dev, true).unwrap();
            assert!(c.iter().all(|p| !p.swap), "{m}x{n}x{k}");
        }
        // TT 3000 x 1000 x 4000 (B N-major): no fill widths as it is (an MN-major B tile is
        // whole 64-column chunks), so 96 tiles of 128x256; transposed it is NN 1000 x 3000
        // (row-major D), 128 tiles of 128x192 or 120 of 128x208 (16-column slabs).
        let c = candidates(&crate::problem::dense_bf16(3000, 1000, 4000, 1, 1), &dev).unwrap();
        assert!(c[0].swap, "{}", c[0].name());
        match c[0].kernel {
            Kernel::Sm90(v) => {
                assert_eq!(v.layout_tag(), "nn");
                // Not stored in 8-column slabs: a row-major D's 8-column slabs are not planned
                // (`sm90::row_slabs_of_8`). Asked of the store itself, not of block_n, whose
                // stores are a consumer's share's (`epilogue_n`: half of a column-split tile).
                assert!((192..=208).contains(&v.block_n), "{}", c[0].name());
                assert_ne!(v.store_box_cols(), 8, "{}", c[0].name());
            }
            k => panic!("not sm90: {k:?}"),
        }
        // ... and only by the margin: every listed transposed plan is modelled SWAP_MARGIN
        // below the best direct one.
        let best_direct = c.iter().find(|p| !p.swap).unwrap().estimate_ns as f64;
        for s in c.iter().filter(|p| p.swap) {
            assert!(
                (s.estimate_ns as f64) < best_direct * (1.0 - SWAP_MARGIN),
                "{}",
                s.name()
            );
        }
        // TN with D a TMA-store target both ways: the alike margin, for tiles that store by
        // TMA only. PyTorch's MLP prefill 14336 x 1024 x 4096 runs 128x224 transposed (64
        // tile columns of 8 rows, 3.9 waves; modelled ~7% under the direct 128x128).
        let prefill = tn(14336, 1024, 4096, crate::types::epilogue::DEFAULT);
        let c = candidates(&prefill, &dev).unwrap();
        assert!(c[0].swap, "{}", c[0].name());
        let best_direct = c.iter().find(|p| !p.swap).unwrap().estimate_ns as f64;
        for s in c.iter().filter(|p| p.swap) {
            assert_eq!(swap_margin(&prefill, s), SWAP_MARGIN_ALIKE, "{}", s.name());
            assert!((s.estimate_ns as f64) < best_direct * (1.0 - SWAP_MARGIN_ALIKE));
        }
        // A 128x32 tile (the general epilogue only) keeps the full margin: 280x488x5712 ran
        // 1.24x slower on it transposed (`35b`).
        let narrow = tn(280, 488, 5712, crate::types::epilogue::DEFAULT);
        for s in hopper_plans(&narrow.transposed(), &dev).unwrap() {
            let Kernel::Sm90(v) = s.kernel else { continue };
            let want = if v.has_tma_store() {
                SWAP_MARGIN_ALIKE
            } else {
                SWAP_MARGIN
            };
            assert_eq!(swap_margin(&narrow, &s), want, "{}", s.name());
        }
        assert!(
            candidates(&narrow, &dev)
                .unwrap()
                .iter()
                .all(|p| match p.kernel {
                    Kernel::Sm90(v) => !p.swap || v.has_tma_store(),
                    _ => true,
                })
        );
        // A swapped plan checks the pointers it will use: the caller's B is its A.
        let p = tn(1, 4096, 4096, crate::types::epilogue::DEFAULT);
        let plan = candidates(&p, &dev).unwrap()[0];
        let mut ptrs = aligned_ptrs();
        assert!(plan.accepts(&p, &ptrs));
        ptrs.a += 2;
        assert!(!plan.accepts(&p, &ptrs));
        assert_eq!(Plan::from_algo(&plan.to_algo(), &p, &dev).unwrap(), plan);
    }

    /// A small deterministic generator (xorshift64*) for the random problems below.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
        fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
            xs[self.below(xs.len() as u64) as usize]
        }
        /// A dimension: tiny, ragged around the tiles, or log-uniform up to `max` (half of
        /// those rounded to a multiple of 8, as real layers mostly are: TMA's lines then fit).
        fn dim(&mut self, max: u64) -> u64 {
            match self.below(4) {
                0 => 1 + self.below(40),
                1 => self.pick(&[63, 64, 65, 127, 128, 129, 255, 256, 257, 4095, 4096, 4097]),
                _ => {
                    let x = 2f64.powf(self.below(1000) as f64 / 1000.0 * (max as f64).log2());
                    let x = (x as u64).clamp(1, max);
                    if self.below(2) == 0 {
                        x.next_multiple_of(8)
                    } else {
                        x
                    }
                }
            }
        }
    }

    /// A stored operand of `rows` x `cols` (as op() sees it before the transpose is undone by
    /// the caller), in `order`, with `pad` extra elements a line and `batch` matrices.
    fn stored(
        dtype: i32,
        rows: u64,
        cols: u64,
        row_major: bool,
        pad: u64,
        batch: i32,
    ) -> MatrixSpec {
        let mut s = MatrixSpec::col(dtype, rows, cols, 1);
        s.order = if row_major {
            crate::types::order::ROW
        } else {
            crate::types::order::COL
        };
        let line = if row_major { cols } else { rows };
        s.ld = (line.max(1) + pad) as i64;
        s.batch_count = batch;
        if batch > 1 {
            let lines = if row_major { rows } else { cols };
            s.batch_stride = s.ld * lines as i64 + pad as i64;
        }
        s
    }

    /// What every plan must be, whatever the problem: an algo that decodes to itself (a
    /// heuristic `candidate`); a
    /// portable grid that covers D within the launch limits; an sm90 kernel that takes the
    /// problem it runs on (transposed and packed as the plan says), a persistent grid, the
    /// Stream-K workspace its schedule needs, and (unclustered) a schedule that covers every
    /// k-iteration of every tile once with a deadlock-free fixup order; slab blocks that each
    /// have a plan within the slab plan's workspace.
    fn check_plan(
        c: &Plan,
        p: &GemmProblem,
        dev: &DeviceSpec,
        ptrs: &GemmPointers,
        candidate: bool,
        ctx: &str,
    ) {
        assert!(
            c.block >= 1 && c.grid.iter().all(|&g| g >= 1),
            "{ctx}: {}",
            c.name()
        );
        if candidate {
            // A call's own choice may be a candidate's kernel on packed copies of operands
            // its pointers misalign: no heuristic lists that one, so no algo names it.
            let decoded = Plan::from_algo(&c.to_algo(), p, dev)
                .unwrap_or_else(|e| panic!("{ctx}: {} does not decode: {e}", c.name()));
            assert_eq!(decoded.name(), c.name(), "{ctx}");
        }
        if c.is_slabbed() {
            let blocks = slab::blocks(p, c.slabs);
            assert!(blocks.len() > 1, "{ctx}: {}", c.name());
            for (m0, mc, n0, nc) in blocks {
                let b = p.block(m0, mc, n0, nc);
                let bp = slab::block_plan(&b, dev, &ptrs.block(p, m0, n0), c.workspace)
                    .unwrap_or_else(|e| panic!("{ctx}: block {m0},{n0}: {e}"));
                assert!(bp.workspace <= c.workspace && !bp.is_slabbed(), "{ctx}");
            }
            return;
        }
        let q0 = if c.swap { p.transposed() } else { *p };
        let q = match &c.pack {
            Some(spec) => pack::packed_problem(&q0, spec),
            None => q0,
        };
        match c.kernel {
            Kernel::Skinny(v) => {
                assert!(c.pack.is_none() && c.workspace == 0, "{ctx}");
                assert!(
                    skinny::takes(&q) && q.n <= v.cols as u64,
                    "{ctx}: {}",
                    c.name()
                );
                assert!(v.runs_on(dev) && c.block == v.threads(), "{ctx}");
                assert!(c.grid[0] >= 1 && c.grid[1] == 1 && c.grid[2] == 1, "{ctx}");
            }
            Kernel::Portable(v) => {
                assert!(!c.swap && c.pack.is_none() && c.workspace == 0, "{ctx}");
                let t = v.tile;
                assert!(c.grid[0] as u64 * t.m as u64 >= q.m, "{ctx}: {}", c.name());
                let n_tiles = q.n.div_ceil(t.n as u64);
                assert_eq!(c.grid[1] as u64, n_tiles.clamp(1, MAX_GRID_Y), "{ctx}");
                assert_eq!(c.grid[2] as u64, q.batch.clamp(1, MAX_GRID_Z), "{ctx}");
            }
            Kernel::Sm90(v) => {
                assert_eq!((dev.cc_major, dev.cc_minor), (9, 0), "{ctx}");
                v.check(&q)
                    .unwrap_or_else(|e| panic!("{ctx}: {} refuses its problem: {e}", c.name()));
                assert!(v.fits_device(dev), "{ctx}: {}", c.name());
                let d = c.decomposition;
                let k_iters = q.k.div_ceil(v.block_k as u64).max(1);
                assert_eq!(d.grid, c.grid[0], "{ctx}: {}", c.name());
                assert!(d.sk_ctas <= d.grid, "{ctx}: {}", c.name());
                // Persistent: no more CTAs than the device holds at once (in whole clusters).
                let cs = v.cluster_size().max(1);
                assert!(
                    d.grid <= dev.resident_clusters(cs).max(1) * cs * v.ctas_per_sm(),
                    "{ctx}: {} grid",
                    c.name()
                );
                // On a share of the SMs: within the share, one CTA an SM, whole clusters.
                if dev.partial {
                    assert!(
                        d.grid <= dev.sm_count && cs <= dev.sm_count,
                        "{ctx}: {} on {} SMs",
                        c.name(),
                        dev.sm_count
                    );
                }
                assert!(
                    c.workspace >= d.workspace_bytes(&v, k_iters),
                    "{ctx}: {}",
                    c.name()
                );
                let tiles = v.num_tiles(&q);
                if v.cluster_size() == 1 && v.split_k == 1 && tiles * k_iters <= 40_000 {
                    streamk::tests::check_schedule(&d, tiles, k_iters);
                }
            }
            Kernel::Pack(_) => panic!("{ctx}: a pack kernel as a GEMM plan"),
        }
    }

    /// Configured algos (AlgoInit + ConfigSetAttribute) reach plans the heuristic never lists:
    /// every plan of the universe they resolve in is valid for its problem (`check_plan`), and
    /// the plan each family's configurations run for a call fits its workspace and pointers.
    /// Random problems: every type, transpose, bias / GELU epilogue, row-major D, beta.
    #[test]
    fn configured_universes_hold_valid_plans() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let types = [
            (R_16BF, R_16BF, COMPUTE_32F),
            (R_16F, R_16F, COMPUTE_32F),
            (R_16BF, R_32F, COMPUTE_32F),
            (R_32F, R_32F, COMPUTE_32F_FAST_TF32),
        ];
        let epilogues = [
            crate::types::epilogue::DEFAULT,
            crate::types::epilogue::BIAS,
            crate::types::epilogue::GELU_BIAS,
        ];
        let dev = DeviceSpec::H200;
        let (mut plans, mut beyond) = (0u64, 0u64);
        for i in 0..60 {
            let (ab, cd, ct) = rng.pick(&types);
            let (mut m, mut n, mut k) = (rng.dim(8000), rng.dim(8000), rng.dim(8192));
            if rng.below(2) == 0 {
                (m, n, k) = (
                    m.next_multiple_of(8),
                    n.next_multiple_of(8),
                    k.next_multiple_of(8),
                );
            }
            let (ta, tb) = (rng.below(2) as i32, rng.below(2) as i32);
            let rc = rng.below(4) == 0;
            let (ar, ac) = if ta == 1 { (k, m) } else { (m, k) };
            let (br, bc) = if tb == 1 { (n, k) } else { (k, n) };
            let a = stored(ab, ar, ac, false, 0, 1);
            let b = stored(ab, br, bc, false, 0, 1);
            let c = stored(cd, m, n, rc, 0, 1);
            let mut op = OpSpec::new(ct, R_32F);
            op.trans_a = ta;
            op.trans_b = tb;
            op.epilogue = rng.pick(&epilogues);
            let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
            let beta = if rng.below(2) == 0 { 1.0 } else { 0.0 };
            let ptrs = GemmPointers {
                alpha: crate::problem::Scalar::Host(1.0),
                beta: crate::problem::Scalar::Host(beta),
                a: 0x1_0000_0000,
                b: 0x2_0000_0000,
                c: 0x3_0000_0000,
                d: 0x3_0000_0000,
                bias: if p.epilogue.bias { 0x4_0000_0000 } else { 0 },
            };
            let ctx = format!(
                "problem {i}: {}x{}x{} t{ta}{tb} {:?}->{:?} {:?} {:?} row-major D {rc} beta {beta}",
                p.m, p.n, p.k, p.ab_type, p.cd_type, p.math, p.epilogue
            );
            let listed = candidates(&p, &dev).unwrap();
            for c in configured_universe(&p, &dev, pack::Which::NONE).unwrap() {
                plans += 1;
                beyond += !listed.contains(&c) as u64;
                check_plan(&c, &p, &dev, &ptrs, false, &ctx);
            }
            let ty = algo::Types::of(&p);
            for family in algo::ids_for(&ty, &dev) {
                let init = algo::Config::init(family);
                let mut configs = vec![init];
                for tile in algo::tile_ids(family, ty.imp()) {
                    configs.push(algo::Config { tile, ..init });
                }
                for custom in 1..=3 {
                    configs.push(algo::Config { custom, ..init });
                }
                for splitk in 2..5 {
                    configs.push(algo::Config { splitk, ..init });
                }
                for config in configs {
                    let words = algo::View::configured_words(&config, &ty);
                    for ws in [0u64, 1 << 30] {
                        if let Ok(pl) = cache::for_call(&p, &dev, &ptrs, Some(&words), ws) {
                            assert!(pl.workspace <= ws && pl.accepts(&p, &ptrs), "{ctx}");
                            assert!(config.admits(&algo::Config::of(&pl)), "{ctx}");
                            check_plan(&pl, &p, &dev, &ptrs, false, &format!("{ctx} {config:?}"));
                        }
                    }
                }
            }
        }
        eprintln!("{plans} plans in the universes, {beyond} beyond the heuristic's lists");
        assert!(beyond > plans / 2, "{beyond} of {plans}");
    }

    /// SM_COUNT_TARGET: the device with fewer SMs, and every plan within them: one CTA an SM
    /// (solo tiles, pack copies and the skinny kernel included), no cluster larger than the
    /// share, for shares down to one SM.
    #[test]
    fn an_sm_target_plans_for_that_many_sms() {
        let dev = DeviceSpec::H200;
        for all in [0, 132, 500] {
            assert_eq!(dev.with_sm_target(all), dev);
        }
        let t = dev.with_sm_target(40);
        assert_eq!((t.sm_count, t.smem_per_block), (40, dev.smem_per_block));
        assert!(t.partial && !dev.partial);
        let shapes = [
            (8192, 8192, 8192),
            (4096, 4096, 1024),
            (16, 8192, 8192),
            (512, 512, 64),
        ];
        for target in [40, 5, 3, 2, 1] {
            let t = dev.with_sm_target(target);
            for (m, n, k) in shapes {
                let p = problem(m, n, k, 1, R_16BF, R_16BF, COMPUTE_32F);
                let full = candidates(&p, &dev).unwrap();
                assert!(full[0].grid[0] > 40, "{}", full[0].name());
                let mut all = candidates(&p, &t).unwrap();
                all.extend(configured_universe(&p, &t, pack::Which::NONE).unwrap());
                for c in &all {
                    if let Kernel::Sm90(v) = c.kernel {
                        assert!(c.grid[0] <= target, "{} on {target}", c.name());
                        assert!(v.cluster_size() <= target, "{} on {target}", c.name());
                        assert!(c.decomposition.sk_ctas <= c.grid[0], "{}", c.name());
                    }
                }
                assert!(matches!(all[0].kernel, Kernel::Sm90(_)), "{target}");
                // Operands TMA cannot read (odd leading dimensions): their copies too.
                let a = MatrixSpec::col(R_16BF, m, k, m as i64 + 1);
                let b = MatrixSpec::col(R_16BF, k, n, k as i64 + 1);
                let c = MatrixSpec::col(R_16BF, m, n, m as i64);
                let op = OpSpec::new(COMPUTE_32F, R_32F);
                let odd = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
                let mut copies = 0;
                for plan in candidates(&odd, &t).unwrap() {
                    let Some(spec) = plan.pack else { continue };
                    for (_, o) in spec.operands() {
                        let v = pack::PackVariant::for_operand(&o).unwrap();
                        assert!(v.grid(&o, &t) <= target, "{} on {target}", plan.name());
                        copies += 1;
                    }
                }
                assert!(copies > 0, "{m}x{n}x{k} on {target}: no packed plan");
            }
        }
        // Decode's skinny kernel (when asked for), both forms' grids: TN, D 4096 x 8.
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = 1;
        let a = MatrixSpec::col(R_16BF, 4096, 4096, 4096);
        let b = MatrixSpec::col(R_16BF, 4096, 8, 4096);
        let c = MatrixSpec::col(R_16BF, 4096, 8, 4096);
        let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
        for dev in [DeviceSpec::H200, DeviceSpec::A100] {
            let t = dev.with_sm_target(10);
            let plan = skinny::plan_with(&p, &t, skinny::Mode::Forced).expect("a skinny plan");
            assert!(plan.grid[0] <= 10, "{}", plan.name());
        }
    }

    /// Random problems (ragged and tiny sizes, k = 0, every type combination and transpose,
    /// both orders per operand, padded and odd leading dimensions, batches, epilogues,
    /// misaligned pointers, workspaces from none to 160 MiB) on the H200, an A100 and a T4:
    /// every candidate and the plan a call takes are valid (`check_plan`), and the call's plan
    /// fits its workspace and takes its pointers. DEEPGEMM_PLAN_SEED picks other problems; the
    /// seed and the problem are in every failure message.
    #[test]
    fn random_problems_get_valid_plans() {
        let seed = std::env::var("DEEPGEMM_PLAN_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(29u64);
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let types = [
            (R_16BF, R_16BF, COMPUTE_32F),
            (R_16F, R_16F, COMPUTE_32F),
            (R_16BF, R_32F, COMPUTE_32F),
            (R_16F, R_32F, COMPUTE_32F),
            (R_32F, R_32F, COMPUTE_32F),
            (R_32F, R_32F, COMPUTE_32F_FAST_TF32),
        ];
        let epilogues = [
            crate::types::epilogue::DEFAULT,
            crate::types::epilogue::RELU,
            crate::types::epilogue::BIAS,
            crate::types::epilogue::GELU_BIAS,
        ];
        let (mut sm90_chosen, mut slabbed, mut swapped, mut packed) = (0, 0, 0, 0);
        for i in 0..400 {
            let (ab, cd, ct) = rng.pick(&types);
            let (mut m, mut n) = (rng.dim(20_000), rng.dim(20_000));
            let mut k = if rng.below(20) == 0 {
                0
            } else {
                rng.dim(16_384)
            };
            if rng.below(2) == 0 {
                // Half the problems aligned throughout, as most layers are.
                (m, n, k) = (
                    m.next_multiple_of(8),
                    n.next_multiple_of(8),
                    k.next_multiple_of(8),
                );
            }
            let batch = if rng.below(5) == 0 {
                1 + rng.below(3) as i32
            } else {
                1
            };
            let (ta, tb) = (rng.below(2) as i32, rng.below(2) as i32);
            // Mostly aligned lines; sometimes a pad that breaks TMA's 16-byte rule.
            let mut pad = || {
                if rng.below(8) == 0 {
                    rng.pick(&[1, 3, 8, 13])
                } else {
                    0
                }
            };
            let (pa, pb, pc) = (pad(), pad(), pad());
            let mut rm = || rng.below(6) == 0;
            let (ra, rb, rc) = (rm(), rm(), rm());
            let (ar, ac) = if ta == 1 { (k, m) } else { (m, k) };
            let (br, bc) = if tb == 1 { (n, k) } else { (k, n) };
            let a = stored(ab, ar, ac, ra, pa, batch);
            let b = stored(ab, br, bc, rb, pb, batch);
            let c = stored(cd, m, n, rc, pc, batch);
            let mut op = OpSpec::new(ct, R_32F);
            op.trans_a = ta;
            op.trans_b = tb;
            op.epilogue = rng.pick(&epilogues);
            let p = match GemmProblem::new(&op, &a, &b, &c, &c) {
                Ok(p) => p,
                Err(e) => {
                    panic!("problem {i} (seed {seed}) refused: {e}: {op:?} {a:?} {b:?} {c:?}")
                }
            };
            let elem = |t: i32| if t == R_32F { 4 } else { 2 };
            let mut offset = |t: i32| {
                if rng.below(10) == 0 {
                    elem(t) * (1 + rng.below(3))
                } else {
                    0
                }
            };
            let (off_a, off_b) = (offset(ab), offset(ab));
            let beta = if rng.below(4) == 0 { 1.0 } else { 0.0 };
            let ptrs = GemmPointers {
                alpha: crate::problem::Scalar::Host(1.0),
                beta: crate::problem::Scalar::Host(beta),
                a: 0x1_0000_0000 + off_a,
                b: 0x2_0000_0000 + off_b,
                c: 0x3_0000_0000,
                d: 0x3_0000_0000,
                bias: if p.epilogue.bias { 0x4_0000_0000 } else { 0 },
            };
            let workspace = rng.pick(&[0u64, 1 << 20, 32 << 20, 160 << 20]);
            // The H200 also as a call with SM_COUNT_TARGET 77 sees it (odd: clusters of 2
            // leave one SM).
            let devices = [
                DeviceSpec::H200,
                DeviceSpec::H200.with_sm_target(77),
                DeviceSpec::H200.with_sm_target(3),
                DeviceSpec::A100,
                DeviceSpec::T4,
            ];
            for dev in devices {
                let ctx = format!(
                    "seed {seed} problem {i}: {}x{}x{} batch {} t{ta}{tb} {:?}->{:?} {:?} pads \
                     {pa},{pb},{pc} rows {ra},{rb},{rc} ws {workspace} on sm_{}{}",
                    p.m,
                    p.n,
                    p.k,
                    p.batch,
                    p.ab_type,
                    p.cd_type,
                    p.math,
                    dev.cc_major,
                    dev.cc_minor
                );
                let all = candidates(&p, &dev).unwrap_or_else(|e| panic!("{ctx}: {e}"));
                // The portable plan is always there (last, or before packed plans that do
                // not pay).
                assert!(
                    all.iter().any(|c| matches!(c.kernel, Kernel::Portable(_))),
                    "{ctx}"
                );
                for c in &all {
                    check_plan(c, &p, &dev, &ptrs, true, &ctx);
                }
                let chosen = choose_for_call(&p, &dev, &ptrs, workspace)
                    .unwrap_or_else(|e| panic!("{ctx}: no plan for the call: {e}"));
                assert!(chosen.workspace <= workspace, "{ctx}: {}", chosen.name());
                assert!(chosen.accepts(&p, &ptrs), "{ctx}: {}", chosen.name());
                check_plan(&chosen, &p, &dev, &ptrs, false, &ctx);
                if dev.cc_major == 9 && matches!(chosen.kernel, Kernel::Sm90(_)) {
                    sm90_chosen += 1;
                    slabbed += chosen.is_slabbed() as u32;
                    swapped += chosen.swap as u32;
                    packed += chosen.pack.is_some() as u32;
                }
            }
        }
        // The draw reaches the planner's branches (of the 400 H200 calls).
        eprintln!("sm90 {sm90_chosen}, slabbed {slabbed}, swapped {swapped}, packed {packed}");
        assert!(
            sm90_chosen >= 100 && swapped >= 10 && packed >= 3,
            "seed {seed}"
        );
    }
}
