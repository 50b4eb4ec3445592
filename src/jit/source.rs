//! CUDA source for one kernel variant, as the single self-contained string NVRTC compiles.
//!
//! The kernel files under `kernels/` are embedded at build time (`include_str!`), so the
//! library needs neither the source tree nor a CUDA toolkit at run time. Their quoted
//! `#include "..."` directives (paths relative to `kernels/`) are expanded here, each file
//! once (`#pragma once` semantics), with `#line` markers so that NVRTC's diagnostics name
//! the original file and line. The variant's `extern "C"` entry point is appended, named by
//! `KernelVariant::name()`, so loading never searches for symbols.

use std::collections::HashSet;
use std::fmt::Write as _;

use crate::plan::KernelVariant;
use crate::types::Math;

/// Every kernel file, by its path relative to `kernels/` (the include path): the portable
/// kernels', the Hopper kernel's and the pack kernel's (src/jit/sm90.rs and src/jit/pack.rs
/// render their entry points from these too).
const FILES: &[(&str, &str)] = &[
    (
        "common/params.cuh",
        include_str!("../../kernels/common/params.cuh"),
    ),
    (
        "common/types.cuh",
        include_str!("../../kernels/common/types.cuh"),
    ),
    (
        "common/math.cuh",
        include_str!("../../kernels/common/math.cuh"),
    ),
    ("ptx/cvt.cuh", include_str!("../../kernels/ptx/cvt.cuh")),
    ("ptx/mma.cuh", include_str!("../../kernels/ptx/mma.cuh")),
    (
        "gemm/portable.cuh",
        include_str!("../../kernels/gemm/portable.cuh"),
    ),
    (
        "gemm/mainloop_ffma.cuh",
        include_str!("../../kernels/gemm/mainloop_ffma.cuh"),
    ),
    (
        "gemm/mainloop_mma.cuh",
        include_str!("../../kernels/gemm/mainloop_mma.cuh"),
    ),
    ("ptx/smem.cuh", include_str!("../../kernels/ptx/smem.cuh")),
    ("ptx/fence.cuh", include_str!("../../kernels/ptx/fence.cuh")),
    (
        "ptx/griddep.cuh",
        include_str!("../../kernels/ptx/griddep.cuh"),
    ),
    (
        "ptx/mbarrier.cuh",
        include_str!("../../kernels/ptx/mbarrier.cuh"),
    ),
    ("ptx/tma.cuh", include_str!("../../kernels/ptx/tma.cuh")),
    (
        "ptx/cluster.cuh",
        include_str!("../../kernels/ptx/cluster.cuh"),
    ),
    ("ptx/dsmem.cuh", include_str!("../../kernels/ptx/dsmem.cuh")),
    ("ptx/wgmma.cuh", include_str!("../../kernels/ptx/wgmma.cuh")),
    ("ptx/regs.cuh", include_str!("../../kernels/ptx/regs.cuh")),
    (
        "ptx/special.cuh",
        include_str!("../../kernels/ptx/special.cuh"),
    ),
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
        "ptx/ldmatrix.cuh",
        include_str!("../../kernels/ptx/ldmatrix.cuh"),
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
        "ptx/global_sync.cuh",
        include_str!("../../kernels/ptx/global_sync.cuh"),
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
    ("ptx/mufu.cuh", include_str!("../../kernels/ptx/mufu.cuh")),
    (
        "sm90/epilogue.cuh",
        include_str!("../../kernels/sm90/epilogue.cuh"),
    ),
    (
        "sm90/store.cuh",
        include_str!("../../kernels/sm90/store.cuh"),
    ),
    (
        "sm90/trace.cuh",
        include_str!("../../kernels/sm90/trace.cuh"),
    ),
    ("sm90/gemm.cuh", include_str!("../../kernels/sm90/gemm.cuh")),
    ("pack/pack.cuh", include_str!("../../kernels/pack/pack.cuh")),
    (
        "ptx/cp_async.cuh",
        include_str!("../../kernels/ptx/cp_async.cuh"),
    ),
    (
        "skinny/skinny.cuh",
        include_str!("../../kernels/skinny/skinny.cuh"),
    ),
    ("ptx/bulk.cuh", include_str!("../../kernels/ptx/bulk.cuh")),
    (
        "skinny/bulk.cuh",
        include_str!("../../kernels/skinny/bulk.cuh"),
    ),
];

/// The embedded text of a kernel file (for tests and diagnostics).
pub fn embedded(path: &str) -> Option<&'static str> {
    file(path)
}

fn file(path: &str) -> Option<&'static str> {
    FILES.iter().find(|(p, _)| *p == path).map(|(_, s)| *s)
}

/// The mainloop header and class template for a math mode.
fn mainloop(math: Math) -> (&'static str, &'static str) {
    match math {
        Math::Ffma => ("gemm/mainloop_ffma.cuh", "FfmaMainloop"),
        Math::Mma => ("gemm/mainloop_mma.cuh", "MmaMainloop"),
        Math::MmaTf32 => ("gemm/mainloop_mma.cuh", "Tf32Mainloop"),
    }
}

/// `#include "path"` -> `Some(path)`; any other line (including `<...>` includes, which
/// NVRTC would reject for lack of a toolkit anyway) -> `None`.
fn quoted_include(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("include")?.trim_start();
    let rest = rest.strip_prefix('"')?;
    let end = rest.find('"')?;
    Some(&rest[..end])
}

fn is_pragma_once(line: &str) -> bool {
    let t = line.trim();
    t.strip_prefix('#')
        .map(|r| r.split_whitespace().eq(["pragma", "once"]))
        .unwrap_or(false)
}

/// Appends `path` with its includes expanded, skipping files already emitted.
pub(crate) fn expand(path: &str, out: &mut String, seen: &mut HashSet<String>) {
    if !seen.insert(path.to_string()) {
        return;
    }
    let Some(text) = file(path) else {
        // Not reachable for the embedded files (a unit test expands every variant); should a
        // new include be forgotten in FILES, NVRTC reports this line instead of us panicking.
        let _ = writeln!(
            out,
            "#error \"deepgemm: kernels/{path} is not embedded (src/jit/source.rs FILES)\""
        );
        return;
    };
    let _ = writeln!(out, "#line 1 \"kernels/{path}\"");
    for (index, line) in text.lines().enumerate() {
        if let Some(inner) = quoted_include(line) {
            expand(inner, out, seen);
            // Back in this file: the next line is index + 2 (1-based, after the include).
            let _ = writeln!(out, "#line {} \"kernels/{path}\"", index + 2);
        } else if is_pragma_once(line) {
            // One string, each file emitted once: the pragma has nothing left to do, and
            // NVRTC warns about it in the main file.
            out.push('\n');
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
}

/// Full, self-contained CUDA source for one variant (includes expanded, instantiation
/// appended). Deterministic: the same variant always gives the same string (it is part of
/// the cubin cache key).
pub fn render(v: &KernelVariant) -> String {
    let name = v.name();
    let (header, class) = mainloop(v.math);
    let mut out = String::with_capacity(32 * 1024);
    let _ = writeln!(
        out,
        "// deepgemm kernel {name} (generated by src/jit/source.rs)"
    );
    let mut seen = HashSet::new();
    expand("gemm/portable.cuh", &mut out, &mut seen);
    expand(header, &mut out, &mut seen);
    let _ = writeln!(out, "#line 1 \"deepgemm-instantiation\"");
    let _ = writeln!(
        out,
        "extern \"C\" __global__ void __launch_bounds__({threads}) {name}(const GemmParams p) {{\n  \
         portable_gemm<{class}<{ab}, {m}, {n}, {k}, {threads}>, {cd}, {arrays}>(p);\n}}",
        threads = v.threads,
        arrays = v.pointer_arrays,
        ab = v.ab.kernel_type(),
        cd = v.cd.kernel_type(),
        m = v.tile.m,
        n = v.tile.n,
        k = v.tile.k,
    );
    out
}

/// NVRTC options for an architecture string such as `"sm_90a"` or `"sm_80"`
/// (`DeviceSpec::arch()`). `sm_*` (not `compute_*`) so that NVRTC can emit a CUBIN.
/// No include paths (the source is self-contained) and no fast-math: the portable kernels
/// are the accuracy reference, so division, sqrt and denormals stay IEEE. FMA contraction
/// stays on (NVRTC's default), as in every CUDA build and in cuBLAS.
pub fn options(arch: &str) -> Vec<String> {
    vec![
        format!("--gpu-architecture={arch}"),
        "-std=c++17".to_string(),
        "--fmad=true".to_string(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_renders_self_contained() {
        for v in KernelVariant::all() {
            let src = render(&v);
            let entry = format!(
                "extern \"C\" __global__ void __launch_bounds__({}) {}(",
                v.threads,
                v.name()
            );
            assert!(src.contains(&entry), "{}: entry point missing", v.name());
            assert!(
                !src.lines()
                    .any(|l| quoted_include(l).is_some() || l.trim_start().starts_with("#include")),
                "{}: an #include survived expansion",
                v.name()
            );
            assert!(
                !src.contains("is not embedded"),
                "{}: missing file",
                v.name()
            );
            assert!(
                !src.lines().any(is_pragma_once),
                "{}: #pragma once left",
                v.name()
            );
            // The parameter block and the mainloop the instantiation names are present.
            assert!(src.contains("struct GemmParams"));
            let (_, class) = mainloop(v.math);
            assert!(
                src.contains(&format!("struct {class} {{")),
                "{}: {class} missing",
                v.name()
            );
        }
    }

    #[test]
    fn render_is_deterministic_and_distinct() {
        let all = KernelVariant::all();
        let mut seen = HashSet::new();
        for v in &all {
            assert_eq!(render(v), render(v));
            assert!(
                seen.insert(render(v)),
                "{} renders like another variant",
                v.name()
            );
        }
    }

    #[test]
    fn each_file_is_emitted_once() {
        let v = KernelVariant::all()[0];
        let src = render(&v);
        assert_eq!(
            src.matches("#line 1 \"kernels/common/types.cuh\"").count(),
            1
        );
        assert_eq!(src.matches("struct GemmParams {").count(), 1);
    }

    #[test]
    fn every_embedded_file_is_reachable_and_every_include_is_embedded() {
        let mut reached = HashSet::new();
        let mut out = String::new();
        for root in [
            super::super::sm90::ROOT,
            super::super::pack::ROOT,
            super::super::skinny::ROOT,
            super::super::skinny::BULK_ROOT,
        ] {
            expand(root, &mut out, &mut reached);
        }
        assert!(
            !out.contains("is not embedded"),
            "unembedded include: {out}"
        );
        for v in KernelVariant::all() {
            let mut out = String::new();
            expand("gemm/portable.cuh", &mut out, &mut reached);
            expand(mainloop(v.math).0, &mut out, &mut reached);
            assert!(
                !out.contains("is not embedded"),
                "unembedded include: {out}"
            );
        }
        for (path, _) in FILES {
            assert!(
                reached.contains(*path),
                "{path} is embedded but never included"
            );
        }
    }

    #[test]
    fn include_parsing() {
        assert_eq!(quoted_include("#include \"a/b.cuh\""), Some("a/b.cuh"));
        assert_eq!(
            quoted_include("  #  include   \"x.cuh\" // c"),
            Some("x.cuh")
        );
        assert_eq!(quoted_include("#include <cuda_fp16.h>"), None);
        assert_eq!(quoted_include("// #include \"x\""), None);
        assert!(is_pragma_once("#pragma once"));
        assert!(is_pragma_once("  # pragma   once "));
        assert!(!is_pragma_once("#pragma unroll"));
    }

    #[test]
    fn unknown_include_becomes_a_compile_error() {
        let mut out = String::new();
        expand("no/such.cuh", &mut out, &mut HashSet::new());
        assert!(out.starts_with("#error \"deepgemm: kernels/no/such.cuh"));
    }

    #[test]
    fn options_name_the_arch_and_nothing_unsafe() {
        let o = options("sm_90a");
        assert_eq!(o[0], "--gpu-architecture=sm_90a");
        assert!(
            o.iter()
                .all(|s| !s.starts_with("-I") && !s.contains("fast-math"))
        );
        assert!(o.iter().any(|s| s == "-std=c++17"));
    }
}
