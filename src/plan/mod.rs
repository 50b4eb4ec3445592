//! Planning: which kernel variant runs a `GemmProblem` on a device, and how it is launched.
//!
//! Pure Rust over plain data (no CUDA, no I/O), unit-tested with hand-made `DeviceSpec`s.

pub mod sm90;

use crate::error::Result;
use crate::problem::GemmProblem;
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
}

impl DeviceSpec {
    /// H100/H200 SXM.
    pub const H200: DeviceSpec = DeviceSpec {
        cc_major: 9,
        cc_minor: 0,
        sm_count: 132,
        smem_per_block: 232_448,
    };
    pub const A100: DeviceSpec = DeviceSpec {
        cc_major: 8,
        cc_minor: 0,
        sm_count: 108,
        smem_per_block: 166_912,
    };
    pub const T4: DeviceSpec = DeviceSpec {
        cc_major: 7,
        cc_minor: 5,
        sm_count: 40,
        smem_per_block: 65_536,
    };

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
}

impl KernelVariant {
    /// The variant's name: its `extern "C"` entry symbol, cache-key prefix and log label.
    /// Derived from the configuration, never written by hand.
    pub fn name(&self) -> String {
        format!(
            "dg_portable_{}_{}_{}_m{}n{}k{}_t{}",
            self.ab.tag(),
            self.cd.tag(),
            self.math.tag(),
            self.tile.m,
            self.tile.n,
            self.tile.k,
            self.threads
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
                    v.push(KernelVariant::portable(ab, cd, math));
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

/// A launch decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Plan {
    pub variant: KernelVariant,
    pub grid: [u32; 3],
    pub block: u32,
    /// Workspace bytes the plan needs (the portable path needs none).
    pub workspace: u64,
}

/// First word of an encoded algo: "dgm" + encoding version 1. An algo whose first word
/// differs was not made by this library (or is from another version): INVALID_VALUE.
pub const ALGO_MAGIC: u64 = 0x6467_6d00_0000_0001;

impl Plan {
    /// Waves of CTAs over the device (cuBLASLt's heuristic `wavesCount`).
    pub fn waves(&self, dev: &DeviceSpec) -> f32 {
        let ctas = self.grid.iter().map(|&g| g as f64).product::<f64>();
        (ctas / dev.sm_count.max(1) as f64) as f32
    }

    /// Encodes the plan into the 8 words of a `deepgemmLtMatmulAlgo_t`.
    pub fn to_algo(&self) -> [u64; 8] {
        let v = &self.variant;
        let ty = |t: ScalarType| t as u64;
        [
            ALGO_MAGIC,
            ty(v.ab) | ty(v.cd) << 8 | (v.math as u64) << 16,
            v.tile.m as u64 | (v.tile.n as u64) << 16 | (v.tile.k as u64) << 32,
            v.threads as u64,
            self.grid[0] as u64 | (self.grid[1] as u64) << 32,
            self.grid[2] as u64,
            self.workspace,
            0,
        ]
    }

    /// Decodes an algo made by `to_algo`, checking that it is one `choose` could make for
    /// `p` on `dev` (so a caller-supplied algo can never launch a mismatched kernel).
    pub fn from_algo(data: &[u64; 8], p: &GemmProblem, dev: &DeviceSpec) -> Result<Plan> {
        if data[0] != ALGO_MAGIC {
            return Err(invalid!("algo was not produced by deepgemm's heuristic"));
        }
        let expect = choose(p, dev)?;
        if data[1..8] != expect.to_algo()[1..8] {
            return Err(invalid!(
                "algo does not fit this problem ({} expected)",
                expect.variant.name()
            ));
        }
        Ok(expect)
    }
}

fn ceil_div(a: u64, b: u64) -> u64 {
    a.div_ceil(b)
}

/// Chooses the kernel for `p` on `dev`. On devices without mma.sync the tensor-core
/// math falls back to FFMA (exact fp32 products, so still within every tolerance).
pub fn choose(p: &GemmProblem, dev: &DeviceSpec) -> Result<Plan> {
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
    let variant = KernelVariant::portable(p.ab_type, p.cd_type, math);
    let grid_for = |tiles: u64, cap: u64| -> u32 { tiles.clamp(1, cap) as u32 };
    let m_tiles = ceil_div(p.m, variant.tile.m as u64);
    let n_tiles = ceil_div(p.n, variant.tile.n as u64);
    if m_tiles > MAX_GRID_X {
        return Err(invalid!("m = {} is too large", p.m));
    }
    Ok(Plan {
        variant,
        grid: [
            grid_for(m_tiles, MAX_GRID_X),
            grid_for(n_tiles, MAX_GRID_Y),
            grid_for(p.batch, MAX_GRID_Z),
        ],
        block: variant.threads,
        workspace: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::problem::{MatrixSpec, OpSpec};
    use crate::types::{compute_type::*, cuda_data_type::*};

    fn problem(m: u64, n: u64, k: u64, batch: i32, ab: i32, cd: i32, ct: i32) -> GemmProblem {
        let mut a = MatrixSpec::col(ab, m, k, m.max(1) as i64);
        let mut b = MatrixSpec::col(ab, k, n, k.max(1) as i64);
        let mut c = MatrixSpec::col(cd, m, n, m.max(1) as i64);
        for s in [&mut a, &mut b, &mut c] {
            s.batch_count = batch;
        }
        GemmProblem::new(&OpSpec::new(ct, R_32F), &a, &b, &c, &c).unwrap()
    }

    #[test]
    fn variant_names_are_unique_and_derived() {
        let all = KernelVariant::all();
        assert_eq!(all.len(), 10);
        let mut names: Vec<String> = all.iter().map(|v| v.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len());
        assert_eq!(
            KernelVariant::portable(ScalarType::BF16, ScalarType::F32, Math::Mma).name(),
            "dg_portable_bf16_f32_mma_m64n64k32_t128"
        );
        for n in &names {
            assert!(n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
        }
    }

    #[test]
    fn arch_strings() {
        assert_eq!(DeviceSpec::H200.arch(), "sm_90a");
        assert_eq!(DeviceSpec::A100.arch(), "sm_80");
        assert_eq!(DeviceSpec::T4.arch(), "sm_75");
    }

    #[test]
    fn every_problem_gets_a_compiled_variant_on_every_arch() {
        let all = KernelVariant::all();
        for dev in [DeviceSpec::H200, DeviceSpec::A100, DeviceSpec::T4] {
            for (ab, cd, ct) in [
                (R_32F, R_32F, COMPUTE_32F),
                (R_32F, R_32F, COMPUTE_32F_FAST_TF32),
                (R_16F, R_16F, COMPUTE_32F),
                (R_16F, R_32F, COMPUTE_32F),
                (R_16BF, R_16BF, COMPUTE_32F),
                (R_16BF, R_32F, COMPUTE_32F),
            ] {
                let p = problem(100, 50, 30, 1, ab, cd, ct);
                let plan = choose(&p, &dev).unwrap();
                assert!(all.contains(&plan.variant), "{:?}", plan.variant);
                assert_eq!(
                    plan.variant.needs_mma(),
                    dev.has_mma_sync() && p.math != Math::Ffma
                );
                assert_eq!(plan.block, plan.variant.threads);
            }
        }
        let old = DeviceSpec {
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
            let plan = choose(&p, &DeviceSpec::H200).unwrap();
            let t = plan.variant.tile;
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
    fn algo_round_trip_and_rejection() {
        let p = problem(300, 200, 100, 1, R_16F, R_32F, COMPUTE_32F);
        let dev = DeviceSpec::H200;
        let plan = choose(&p, &dev).unwrap();
        let algo = plan.to_algo();
        assert_eq!(Plan::from_algo(&algo, &p, &dev).unwrap(), plan);
        let mut bad = algo;
        bad[0] ^= 1;
        assert!(matches!(
            Plan::from_algo(&bad, &p, &dev),
            Err(Error::InvalidValue(_))
        ));
        // An algo for another problem (other types) is refused, not launched.
        let q = problem(300, 200, 100, 1, R_16BF, R_16BF, COMPUTE_32F);
        assert!(matches!(
            Plan::from_algo(&algo, &q, &dev),
            Err(Error::InvalidValue(_))
        ));
        assert!(plan.waves(&dev) > 0.0);
    }
}
