//! CUDA source of one sm90 kernel variant, as the single self-contained string NVRTC compiles.
//!
//! The files under `kernels/` are embedded at build time (`include_str!`), so neither the
//! source tree nor a CUDA toolkit is needed at run time. Quoted `#include "..."` directives
//! (paths relative to `kernels/`) are expanded here, each file once (`#pragma once`), with
//! `#line` markers so that NVRTC's diagnostics name the original file and line. The variant's
//! `extern "C"` entry point, named by `Sm90Variant::name()`, is appended last.
//!
//! (A private expander: src/jit/source.rs grows a general one on another branch; the two are to
//! be unified.)

use std::collections::HashSet;
use std::fmt::Write as _;

use crate::plan::sm90::{Sm90Variant, THREADS};
use crate::types::ScalarType;

/// Every file the sm90 kernel includes, by its path relative to `kernels/`.
const FILES: &[(&str, &str)] = &[
    ("ptx/smem.cuh", include_str!("../../kernels/ptx/smem.cuh")),
    ("ptx/fence.cuh", include_str!("../../kernels/ptx/fence.cuh")),
    (
        "ptx/mbarrier.cuh",
        include_str!("../../kernels/ptx/mbarrier.cuh"),
    ),
    ("ptx/tma.cuh", include_str!("../../kernels/ptx/tma.cuh")),
    ("ptx/wgmma.cuh", include_str!("../../kernels/ptx/wgmma.cuh")),
    ("ptx/regs.cuh", include_str!("../../kernels/ptx/regs.cuh")),
    ("ptx/cvt16.cuh", include_str!("../../kernels/ptx/cvt16.cuh")),
    (
        "ptx/cvt16x2.cuh",
        include_str!("../../kernels/ptx/cvt16x2.cuh"),
    ),
    (
        "ptx/stmatrix.cuh",
        include_str!("../../kernels/ptx/stmatrix.cuh"),
    ),
    (
        "ptx/tma_store.cuh",
        include_str!("../../kernels/ptx/tma_store.cuh"),
    ),
    (
        "ptx/barrier.cuh",
        include_str!("../../kernels/ptx/barrier.cuh"),
    ),
    (
        "sm90/types.cuh",
        include_str!("../../kernels/sm90/types.cuh"),
    ),
    (
        "sm90/pipeline.cuh",
        include_str!("../../kernels/sm90/pipeline.cuh"),
    ),
    (
        "sm90/scheduler.cuh",
        include_str!("../../kernels/sm90/scheduler.cuh"),
    ),
    (
        "sm90/descriptor.cuh",
        include_str!("../../kernels/sm90/descriptor.cuh"),
    ),
    (
        "sm90/epilogue.cuh",
        include_str!("../../kernels/sm90/epilogue.cuh"),
    ),
    (
        "sm90/store.cuh",
        include_str!("../../kernels/sm90/store.cuh"),
    ),
    ("sm90/gemm.cuh", include_str!("../../kernels/sm90/gemm.cuh")),
];

/// The kernel's top-level header.
const ROOT: &str = "sm90/gemm.cuh";

fn file(path: &str) -> Option<&'static str> {
    FILES.iter().find(|(p, _)| *p == path).map(|(_, s)| *s)
}

/// `#include "path"` -> `Some(path)`; any other line -> `None`.
fn quoted_include(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("include")?.trim_start();
    let rest = rest.strip_prefix('"')?;
    let end = rest.find('"')?;
    Some(&rest[..end])
}

fn is_pragma_once(line: &str) -> bool {
    line.trim()
        .strip_prefix('#')
        .map(|r| r.split_whitespace().eq(["pragma", "once"]))
        .unwrap_or(false)
}

/// Appends `path` with its includes expanded, skipping files already emitted. A file missing
/// from `FILES` becomes an `#error`, so NVRTC (and the compile test) names it.
fn expand(path: &str, out: &mut String, seen: &mut HashSet<&'static str>) {
    let Some((key, text)) = FILES.iter().find(|(p, _)| *p == path).copied() else {
        let _ = writeln!(out, "#error \"sm90 source: {path} is not embedded\"");
        return;
    };
    if !seen.insert(key) {
        return;
    }
    let _ = writeln!(out, "#line 1 \"{path}\"");
    for (i, line) in text.lines().enumerate() {
        if is_pragma_once(line) {
            out.push('\n');
        } else if let Some(inc) = quoted_include(line) {
            expand(inc, out, seen);
            let _ = writeln!(out, "#line {} \"{path}\"", i + 2);
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
}

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
    expand(ROOT, &mut out, &mut seen);
    let _ = write!(
        out,
        "#line 1 \"entry\"\n\
         extern \"C\" __global__ void __launch_bounds__({threads}, 1) {name}(\n    \
             const __grid_constant__ dg_sm90::Sm90Params params,\n    \
             const __grid_constant__ dg_sm90::TmaDescriptor tmap_a,\n    \
             const __grid_constant__ dg_sm90::TmaDescriptor tmap_b,\n    \
             const __grid_constant__ dg_sm90::TmaDescriptor tmap_d) {{\n  \
           dg_sm90::gemm<{ab}, {cd}, {bm}, {bn}, {bk}, {stages}, {smem}, {cm}, {cn}, {ta}, {tb}>(\n      \
               params, tmap_a, tmap_b, tmap_d);\n\
         }}\n",
        threads = THREADS,
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
        ta = v.major_a.trans(),
        tb = v.major_b.trans(),
    );
    out
}

/// NVRTC options for every sm90 variant. `sm_90a` (not `sm_90`) enables wgmma and setmaxnreg.
pub fn options() -> Vec<String> {
    vec![
        "--gpu-architecture=sm_90a".to_string(),
        "--std=c++17".to_string(),
    ]
}

/// The embedded text of a kernel file (for tests and diagnostics).
pub fn embedded(path: &str) -> Option<&'static str> {
    file(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_is_self_contained() {
        for v in Sm90Variant::all() {
            let src = render(&v);
            assert!(!src.contains("#include"), "unexpanded include");
            assert!(
                !src.contains("#error \"sm90 source"),
                "missing embedded file"
            );
            assert!(!src.contains("#pragma once"));
            assert!(src.contains(&format!("__launch_bounds__(384, 1) {}(", v.name())));
            assert!(src.contains(&format!(
                ", {}, {}, 1, 1, {}, {}>(\n      params, tmap_a, tmap_b, tmap_d);",
                v.stages,
                v.smem_bytes(),
                v.major_a.trans(),
                v.major_b.trans()
            )));
            // Each header appears once even though several files include it.
            assert_eq!(src.matches("struct Sm90Params {").count(), 1);
            assert_eq!(src.matches("#line 1 \"ptx/mbarrier.cuh\"").count(), 1);
        }
    }

    #[test]
    fn every_embedded_file_is_reached_from_the_root() {
        let src = render(&Sm90Variant::all()[0]);
        for (path, _) in FILES {
            assert!(
                src.contains(&format!("#line 1 \"{path}\"")),
                "{path} is embedded but never included"
            );
        }
    }

    #[test]
    fn include_parsing() {
        assert_eq!(
            quoted_include("#include \"ptx/tma.cuh\""),
            Some("ptx/tma.cuh")
        );
        assert_eq!(quoted_include("  #  include \"a.cuh\" // x"), Some("a.cuh"));
        assert_eq!(quoted_include("#include <cuda.h>"), None);
        assert_eq!(quoted_include("// #include \"a.cuh\""), None);
        assert!(is_pragma_once("#pragma once"));
        assert!(is_pragma_once("  # pragma   once "));
        assert!(!is_pragma_once("#pragma unroll"));
        let mut out = String::new();
        expand("nope.cuh", &mut out, &mut HashSet::new());
        assert!(out.contains("#error"));
    }

    #[test]
    fn kernel_constants_match_the_host() {
        use crate::jit::params::{FLAG_BIAS, FLAG_BIAS_F32};
        use crate::runtime::tensor_map::{FLAG_D_ROW_MAJOR, FLAG_TMA_STORE};
        use crate::types::Activation;
        let types = embedded("sm90/types.cuh").unwrap();
        for (name, value) in [
            ("SM90_FLAG_BIAS", FLAG_BIAS),
            ("SM90_FLAG_BIAS_F32", FLAG_BIAS_F32),
            ("SM90_FLAG_TMA_STORE", FLAG_TMA_STORE),
            ("SM90_FLAG_D_ROW_MAJOR", FLAG_D_ROW_MAJOR),
            ("SM90_ACT_NONE", Activation::None as i32),
            ("SM90_ACT_RELU", Activation::Relu as i32),
            ("SM90_ACT_GELU", Activation::Gelu as i32),
        ] {
            assert!(
                types.contains(&format!("#define {name} {value}\n")),
                "{name} must be {value}"
            );
        }
        let gemm = embedded("sm90/gemm.cuh").unwrap();
        assert!(gemm.contains("static_assert(kNumThreads == 384"));
        // The TMA-store staging the smem formula counts (plan::sm90::TMA_STORE_SMEM_BYTES).
        use crate::plan::sm90::{STORE_BOX, STORE_BUFFERS};
        let store = embedded("sm90/store.cuh").unwrap();
        assert!(store.contains(&format!("static constexpr int kBox = {STORE_BOX};")));
        assert!(store.contains(&format!("static constexpr int kBuffers = {STORE_BUFFERS};")));
        assert_eq!(THREADS, 384);
    }
}
