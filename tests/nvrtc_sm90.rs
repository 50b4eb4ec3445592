//! Compiles every sm90 kernel variant for sm_90a with NVRTC (no GPU needed) and reads the ptxas
//! report: compilation must succeed, nothing may spill, the entry must start at <= 168
//! registers (the cap setmaxnreg needs with 384 threads), ptxas must not ignore setmaxnreg
//! (warning C7508) nor serialise the wgmma pipeline.
//!
//! Needs libnvrtc.so.13 on the loader path (e.g. `LD_LIBRARY_PATH=/opt/nvrtc/nvidia/cu13/lib`);
//! without it the test fails unless DEEPGEMM_SKIP_NVRTC_TESTS=1.

use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

use cudarc::nvrtc::{result, sys};
use deepgemm::jit::sm90::{options, render};
use deepgemm::plan::sm90::Sm90Variant;

/// The most registers a thread may hold at entry: 65536 / 384 rounded down to a multiple of 8.
const ENTRY_REG_CAP: u32 = 168;

#[derive(Debug)]
struct Report {
    registers: u32,
    spill_stores: u32,
    spill_loads: u32,
    stack_frame: u32,
    log: String,
    cubin_len: usize,
}

fn nvrtc_available() -> bool {
    // cudarc panics when the library (or a symbol) is missing.
    catch_unwind(|| {
        let (mut major, mut minor) = (0, 0);
        // SAFETY: valid out-pointers.
        unsafe { sys::nvrtcVersion(&mut major, &mut minor) }
            .result()
            .is_ok()
    })
    .unwrap_or(false)
}

fn compile(name: &str, src: &str, opts: &[String]) -> Result<Report, String> {
    let csrc = CString::new(src).map_err(|e| e.to_string())?;
    let cname = CString::new(format!("{name}.cu")).map_err(|e| e.to_string())?;
    let prog = result::create_program(&csrc, Some(&cname)).map_err(|e| format!("{e:?}"))?;
    // SAFETY: prog was just created and is destroyed exactly once below.
    let compiled = unsafe { result::compile_program(prog, opts) };
    // SAFETY: as above.
    let log = unsafe { result::get_program_log(prog) }
        .map(|l| {
            // SAFETY: NVRTC returns a NUL-terminated log.
            unsafe { CStr::from_ptr(l.as_ptr() as *const c_char) }
                .to_string_lossy()
                .into_owned()
        })
        .unwrap_or_default();
    let cubin_len = if compiled.is_ok() {
        let mut size = 0usize;
        // SAFETY: prog compiled successfully; size is a valid out-pointer.
        unsafe { sys::nvrtcGetCUBINSize(prog, &mut size) }
            .result()
            .map_err(|e| format!("{e:?}"))?;
        let mut cubin = vec![0 as c_char; size];
        // SAFETY: the buffer holds `size` bytes.
        unsafe { sys::nvrtcGetCUBIN(prog, cubin.as_mut_ptr()) }
            .result()
            .map_err(|e| format!("{e:?}"))?;
        size
    } else {
        0
    };
    // SAFETY: prog came from create_program and is not used afterwards.
    let _ = unsafe { result::destroy_program(prog) };
    compiled.map_err(|e| format!("{e:?}\n{log}"))?;
    let number_before = |needle: &str| -> Option<u32> {
        // "... Used 168 registers, ..." / "0 bytes spill stores"
        log.lines().find_map(|line| {
            let at = line.find(needle)?;
            line[..at].split_whitespace().last()?.parse().ok()
        })
    };
    Ok(Report {
        registers: number_before(" registers").ok_or("no register count in the ptxas report")?,
        spill_stores: number_before(" bytes spill stores").ok_or("no spill report")?,
        spill_loads: number_before(" bytes spill loads").ok_or("no spill report")?,
        stack_frame: number_before(" bytes stack frame").ok_or("no stack frame report")?,
        log,
        cubin_len,
    })
}

#[test]
fn every_sm90_variant_compiles_without_spills() {
    if !nvrtc_available() {
        if std::env::var("DEEPGEMM_SKIP_NVRTC_TESTS").as_deref() == Ok("1") {
            eprintln!("NVRTC not found; skipped (DEEPGEMM_SKIP_NVRTC_TESTS=1)");
            return;
        }
        panic!(
            "libnvrtc.so.13 could not be loaded: set LD_LIBRARY_PATH (e.g. \
             /opt/nvrtc/nvidia/cu13/lib) or DEEPGEMM_SKIP_NVRTC_TESTS=1"
        );
    }
    let mut opts = options();
    opts.push("--ptxas-options=-v".to_string());
    let mut failures = Vec::new();
    eprintln!(
        "{:<48} {:>5} {:>7} {:>6} {:>8}",
        "variant", "regs", "smem", "spill", "cubin"
    );
    for v in Sm90Variant::all() {
        let name = v.name();
        let src = render(&v);
        let started = std::time::Instant::now();
        let report = match catch_unwind(AssertUnwindSafe(|| compile(&name, &src, &opts))) {
            Ok(Ok(r)) => r,
            Ok(Err(e)) => {
                failures.push(format!("{name}: compilation failed: {e}"));
                continue;
            }
            Err(_) => {
                failures.push(format!("{name}: NVRTC panicked"));
                continue;
            }
        };
        eprintln!(
            "{:<48} {:>5} {:>7} {:>6} {:>8}  ({:.1} s)",
            name,
            report.registers,
            v.smem_bytes(),
            report.spill_stores + report.spill_loads,
            report.cubin_len,
            started.elapsed().as_secs_f64()
        );
        let mut problems = Vec::new();
        if report.registers > ENTRY_REG_CAP {
            problems.push(format!(
                "{} registers at entry > {ENTRY_REG_CAP}",
                report.registers
            ));
        }
        if report.spill_stores + report.spill_loads > 0 || report.stack_frame > 0 {
            problems.push(format!(
                "spills: {} B stored, {} B loaded, {} B stack frame",
                report.spill_stores, report.spill_loads, report.stack_frame
            ));
        }
        if report.log.contains("C7508") {
            problems.push("setmaxnreg ignored (C7508)".into());
        }
        if report.log.contains("serialized") {
            problems.push("wgmma serialized by ptxas".into());
        }
        if report.cubin_len == 0 {
            problems.push("empty CUBIN".into());
        }
        if !problems.is_empty() {
            failures.push(format!("{name}: {}\n{}", problems.join("; "), report.log));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn an_ill_formed_kernel_is_reported_not_hidden() {
    // Guards the harness itself: a broken source must fail here, so the test above cannot
    // pass vacuously.
    if !nvrtc_available() {
        return;
    }
    let v = Sm90Variant::all()[0];
    let broken = render(&v).replace("params, tmap_a, tmap_b);", "params, tmap_a);");
    assert!(compile("broken", &broken, &options()).is_err());
    // And compiling for plain sm_90 is refused by the kernel's own check.
    let sm90 = vec![
        "--gpu-architecture=sm_90".to_string(),
        "--std=c++17".to_string(),
    ];
    let err = compile("plain_sm90", &render(&v), &sm90).unwrap_err();
    assert!(err.contains("sm_90a"), "{err}");
}
