//! CUDA source of one sm90 kernel variant, as the single self-contained string NVRTC compiles.
//!
//! The kernel files are embedded and their includes expanded by src/jit/source.rs (one
//! table, one expander for every kernel family); this module appends the variant's
//! `extern "C"` entry point, named by `Sm90Variant::name()`.

use std::collections::HashSet;
use std::fmt::Write as _;

use super::source;
use crate::plan::sm90::Sm90Variant;
use crate::types::ScalarType;

/// The kernel's top-level header (every file it includes is embedded by src/jit/source.rs).
pub(crate) const ROOT: &str = "sm90/gemm.cuh";

/// The kernel's C++ name for an element type (kernels/sm90/types.cuh).
fn kernel_type(t: ScalarType) -> &'static str {
    match t {
        ScalarType::F32 => "float",
        ScalarType::F16 => "dg_sm90::Half",
        ScalarType::BF16 => "dg_sm90::Bf16",
    }
}

/// The complete source of `v`: the expanded headers plus its `extern "C"` entry point.
pub fn render(v: &Sm90Variant) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let mut seen = HashSet::new();
    source::expand(ROOT, &mut out, &mut seen);
    let _ = write!(
        out,
        "#line 1 \"entry\"\n\
         extern \"C\" __global__ void __launch_bounds__({threads}, {ctas}) {name}(\n    \
             const __grid_constant__ dg_sm90::Sm90Params params,\n    \
             const __grid_constant__ dg_sm90::TmaDescriptor tmap_a,\n    \
             const __grid_constant__ dg_sm90::TmaDescriptor tmap_b,\n    \
             const __grid_constant__ dg_sm90::TmaDescriptor tmap_d,\n    \
             const __grid_constant__ dg_sm90::TmaDescriptor tmap_c) {{\n  \
           dg_sm90::gemm<{ab}, {cd}, {bm}, {bn}, {bk}, {stages}, {smem}, {cm}, {cn}, {ks}, {ta}, {tb}, {re}, {consumers}, {pp}>(\n      \
               params, tmap_a, tmap_b, tmap_d, tmap_c);\n\
         }}\n",
        threads = v.threads(),
        ctas = v.launch_min_blocks(),
        name = v.name(),
        ab = kernel_type(v.ab),
        cd = kernel_type(v.cd),
        bm = v.block_m,
        bn = v.block_n,
        bk = v.block_k,
        stages = v.stages,
        smem = v.smem_bytes(),
        cm = v.cluster_m,
        cn = v.cluster_n,
        ks = v.split_k,
        ta = v.major_a.trans(),
        tb = v.major_b.trans(),
        re = v.ring_epilogue,
        consumers = v.consumers,
        pp = v.wide_pingpong,
    );
    out
}

/// NVRTC options for every sm90 variant. `sm_90a` (not `sm_90`) enables wgmma and setmaxnreg.
/// Plus a `-D` for each of `defines()`; the options are part of the disk cache key, so such
/// builds never mix with the plain ones.
pub fn options() -> Vec<String> {
    let mut options = vec![
        "--gpu-architecture=sm_90a".to_string(),
        "--std=c++17".to_string(),
    ];
    options.extend(defines().into_iter().map(|d| format!("-D{d}")));
    options
}

/// `DEEPGEMM_NVRTC_DEFINES` (comma-separated `NAME` or `NAME=VALUE`): preprocessor definitions
/// for kernel experiments, e.g. `DG_TRACE` (sm90/trace.cuh).
pub fn defines() -> Vec<String> {
    std::env::var("DEEPGEMM_NVRTC_DEFINES")
        .map(|d| {
            d.split(',')
                .map(str::trim)
                .filter(|d| !d.is_empty())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_is_self_contained() {
        for v in Sm90Variant::all() {
            let src = render(&v);
            assert!(!src.contains("#include"), "unexpanded include");
            assert!(!src.contains("is not embedded"), "missing embedded file");
            assert!(!src.contains("#pragma once"));
            let bounds = if v.solo() {
                "(256, 2)"
            } else if v.tall() {
                "(512, 1)"
            } else {
                "(384, 1)"
            };
            assert!(src.contains(&format!("__launch_bounds__{bounds} {}(", v.name())));
            assert!(src.contains(&format!(
                ", {}, {}, {}, {}, {}, {}, {}, {}, {}, {}>(\n      params, tmap_a, tmap_b, tmap_d, tmap_c);",
                v.stages,
                v.smem_bytes(),
                v.cluster_m,
                v.cluster_n,
                v.split_k,
                v.major_a.trans(),
                v.major_b.trans(),
                v.ring_epilogue,
                v.consumers,
                v.wide_pingpong
            )));
            // Each header appears once even though several files include it.
            assert_eq!(src.matches("struct Sm90Params {").count(), 1);
            assert_eq!(
                src.matches("#line 1 \"kernels/ptx/mbarrier.cuh\"").count(),
                1
            );
        }
    }

    #[test]
    fn kernel_constants_match_the_host() {
        use crate::jit::params::{FLAG_BIAS, FLAG_BIAS_F32};
        use crate::runtime::tensor_map::{FLAG_D_ROW_MAJOR, FLAG_TMA_STORE};
        use crate::types::Activation;
        let types = source::embedded("sm90/types.cuh").unwrap();
        for (name, value) in [
            ("SM90_FLAG_BIAS", FLAG_BIAS),
            ("SM90_FLAG_BIAS_F32", FLAG_BIAS_F32),
            ("SM90_FLAG_TMA_STORE", FLAG_TMA_STORE),
            ("SM90_FLAG_D_ROW_MAJOR", FLAG_D_ROW_MAJOR),
            (
                "SM90_FLAG_BIAS_COL",
                crate::runtime::tensor_map::FLAG_BIAS_COL,
            ),
            (
                "SM90_FLAG_STREAM_A",
                crate::runtime::tensor_map::FLAG_STREAM_A,
            ),
            (
                "SM90_FLAG_STREAM_B",
                crate::runtime::tensor_map::FLAG_STREAM_B,
            ),
            ("SM90_FLAG_C_TMA", crate::runtime::tensor_map::FLAG_C_TMA),
            ("SM90_ACT_NONE", Activation::None as i32),
            ("SM90_ACT_RELU", Activation::Relu as i32),
            ("SM90_ACT_GELU", Activation::Gelu as i32),
        ] {
            assert!(
                types.contains(&format!("#define {name} {value}\n")),
                "{name} must be {value}"
            );
        }
        let gemm = source::embedded("sm90/gemm.cuh").unwrap();
        assert!(gemm.contains("static_assert(kNumThreads == (kSolo ? 256 : kTall ? 512 : 384)"));
        // The TMA-store staging the smem formula counts (plan::sm90::TMA_STORE_SMEM_BYTES).
        use crate::plan::sm90::{STORE_BOX, STORE_BUFFERS};
        let store = source::embedded("sm90/store.cuh").unwrap();
        assert!(store.contains(&format!("static constexpr int kBox = {STORE_BOX};")));
        assert!(store.contains(&format!("static constexpr int kBuffers = {STORE_BUFFERS};")));
        assert_eq!(crate::plan::sm90::THREADS, 384);
    }
}
