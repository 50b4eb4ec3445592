//! The preload library's dynamic symbol table holds exactly the cuBLAS/cuBLASLt GEMM entry
//! points and cuBLAS's cublasSetWorkspace_v2 / cublasDestroy_v2 / cublasSetStream_v2: no deepgemm C API, no Rust or libstd symbols (they would clash with a
//! libdeepgemm.so or another Rust library in the same process), and it does not link cuBLAS
//! or CUDA itself (the real functions are found at run time). Needs binutils' nm.

mod common;

use std::collections::BTreeSet;
use std::process::Command;

const EXPORTS: [&str; 10] = [
    "cublasDestroy_v2",
    "cublasGemmBatchedEx",
    "cublasGemmEx",
    "cublasGemmStridedBatchedEx",
    "cublasHgemm",
    "cublasLtMatmul",
    "cublasSetStream_v2",
    "cublasSetWorkspace_v2",
    "cublasSgemmStridedBatched",
    "cublasSgemm_v2",
];

/// `nm -D <lib> <flags>`: (type letter, name) per symbol.
fn nm(flags: &[&str]) -> Vec<(String, String)> {
    let lib = common::preload_lib();
    let out = Command::new("nm")
        .arg("-D")
        .args(flags)
        .arg(&lib)
        .output()
        .expect("run nm (binutils)");
    assert!(
        out.status.success(),
        "nm failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("nm output is UTF-8")
        .lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace().rev();
            let name = f.next()?.to_string();
            let kind = f.next()?.to_string();
            Some((kind, name))
        })
        .collect()
}

#[test]
fn exports_exactly_the_gemm_entry_points() {
    let defined = nm(&["--defined-only"]);
    let names: BTreeSet<&str> = defined.iter().map(|(_, n)| n.as_str()).collect();
    let want: BTreeSet<&str> = EXPORTS.into_iter().collect();
    assert_eq!(names, want, "dynamic symbols: {defined:?}");
    for (kind, name) in &defined {
        assert_eq!(kind, "T", "{name} must be a global function, is {kind}");
    }
}

#[test]
fn needs_neither_cublas_nor_cuda_at_link_time() {
    let undefined = nm(&["--undefined-only"]);
    assert!(
        undefined.iter().any(|(_, n)| n.starts_with("dlsym")),
        "the real functions are found with dlsym: {undefined:?}"
    );
    for (_, name) in &undefined {
        let cuda_api =
            name.starts_with("cu") && name[2..].starts_with(|c: char| c.is_ascii_uppercase());
        assert!(
            !name.starts_with("cublas") && !cuda_api,
            "undefined symbol {name}: cuBLAS and CUDA must be found at run time (dlopen)"
        );
    }
}

/// The preload library must not carry libdeepgemm's SONAME: a program linked against
/// libdeepgemm.so.0 and run with LD_PRELOAD would then have its NEEDED entry satisfied by the
/// preload library, which exports no deepgemm symbol ("undefined symbol: deepgemmLtMatmul",
/// seen on the H200, 2026-11-29, when deepgemm's build script set the SONAME with a cdylib
/// link argument, which cargo also hands to dependents' cdylibs).
#[test]
fn has_its_own_soname() {
    let lib = common::preload_lib();
    let out = Command::new("readelf")
        .args(["-d"])
        .arg(&lib)
        .output()
        .expect("run readelf (binutils)");
    let text = String::from_utf8_lossy(&out.stdout);
    let soname: Vec<&str> = text.lines().filter(|l| l.contains("(SONAME)")).collect();
    assert_eq!(soname.len(), 1, "{text}");
    assert!(
        soname[0].contains("[libdeepgemm_preload.so]"),
        "{}",
        soname[0]
    );
}
