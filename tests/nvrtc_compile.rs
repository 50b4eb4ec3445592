//! Compiles every portable kernel variant with NVRTC (CPU only: NVRTC needs no GPU) for each
//! architecture it can run on, and checks ptxas's report: the entry symbol exists, registers
//! are reported, nothing spills.
//!
//! Needs libnvrtc on the library search path (e.g. `LD_LIBRARY_PATH=/opt/nvrtc/nvidia/cu13/lib`);
//! without it the test fails unless `DEEPGEMM_SKIP_NVRTC_TESTS=1`.
//! `DEEPGEMM_DUMP_KERNELS=<dir>` also writes each rendered source and cubin there (for
//! cuobjdump, or for loading on a GPU machine).

use std::sync::Mutex;
use std::time::Instant;

use deepgemm::jit::{nvrtc, pack as jit_pack, skinny as jit_skinny, source};
use deepgemm::plan::KernelVariant;
use deepgemm::plan::pack::PackVariant;
use deepgemm::plan::skinny::SkinnyVariant;

/// What ptxas reported for one entry function.
#[derive(Debug, Default)]
struct PtxasReport {
    registers: Option<u32>,
    smem_bytes: Option<u32>,
    spill_stores: Option<u32>,
    spill_loads: Option<u32>,
    stack_bytes: Option<u32>,
}

/// The number just before `suffix` in `line` ("..., 0 bytes spill stores, ..." -> 0).
fn number_before(line: &str, suffix: &str) -> Option<u32> {
    let head = &line[..line.find(suffix)?];
    head.split([',', ':']).next_back()?.trim().parse().ok()
}

/// Parses the `--ptxas-options=-v` lines that follow "Function properties for <entry>" and
/// "Compiling entry function '<entry>'":
///   `0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads`
///   `ptxas info    : Used 96 registers, used 1 barriers, 18432 bytes smem, ...`
fn parse_ptxas(log: &str, entry: &str) -> PtxasReport {
    let mut r = PtxasReport::default();
    let mut in_entry = false;
    for line in log.lines() {
        if line.contains("Compiling entry function") || line.contains("Function properties for") {
            in_entry = line.contains(entry);
            continue;
        }
        if !in_entry {
            continue;
        }
        if line.contains("spill stores") {
            r.stack_bytes = number_before(line, "bytes stack frame");
            r.spill_stores = number_before(line, "bytes spill stores");
            r.spill_loads = number_before(line, "bytes spill loads");
        }
        if line.contains("Used") && line.contains("registers") {
            r.registers = line
                .split("Used")
                .nth(1)
                .and_then(|s| s.split_whitespace().next())
                .and_then(|s| s.parse().ok());
            r.smem_bytes = number_before(line, "bytes smem");
        }
    }
    r
}

fn nvrtc_or_skip() -> bool {
    if nvrtc::is_available() {
        return true;
    }
    if std::env::var("DEEPGEMM_SKIP_NVRTC_TESTS").as_deref() == Ok("1") {
        eprintln!("NVRTC not loadable; skipped because DEEPGEMM_SKIP_NVRTC_TESTS=1");
        return false;
    }
    panic!(
        "libnvrtc could not be loaded, so the kernels cannot be compile-checked. Put \
         libnvrtc.so.13 on LD_LIBRARY_PATH (here: /opt/nvrtc/nvidia/cu13/lib) or set \
         DEEPGEMM_SKIP_NVRTC_TESTS=1 to skip"
    );
}

/// The tensor-core architectures besides Hopper that get the portable kernels: A100, the
/// Ampere and Ada cards (A10 / RTX 30, L4 / L40 / RTX 40: 99 KiB of shared memory a block),
/// Blackwell's data-centre and consumer parts (B200: no wgmma, so not the sm90 kernel; RTX
/// 50). Each is a target NVRTC 13 has, and `DeviceSpec::arch` names them so.
const MMA_ARCHS: [&str; 6] = ["sm_90a", "sm_80", "sm_86", "sm_89", "sm_100", "sm_120"];

/// (variant, arch) pairs the library can launch: tensor-core variants need sm_80+; FFMA
/// also runs on sm_75 (the planner's fallback there).
fn jobs() -> Vec<(KernelVariant, &'static str)> {
    let mut jobs = Vec::new();
    let with_75: Vec<&str> = MMA_ARCHS.iter().copied().chain(["sm_75"]).collect();
    for v in KernelVariant::all() {
        let archs: &[&str] = if v.needs_mma() { &MMA_ARCHS } else { &with_75 };
        for &arch in archs {
            jobs.push((v, arch));
        }
    }
    jobs
}

struct Outcome {
    line: String,
    failure: Option<String>,
}

fn check(v: &KernelVariant, arch: &str) -> Outcome {
    check_source(&v.name(), &source::render(v), arch)
}

/// Compiles one rendered kernel for `arch` and checks ptxas's report of entry `name`.
fn check_source(name: &str, src: &str, arch: &str) -> Outcome {
    let name = name.to_string();
    let mut opts = source::options(arch);
    opts.push("--ptxas-options=-v".to_string());
    let start = Instant::now();
    let result = nvrtc::compile(&name, src, &opts);
    let ms = start.elapsed().as_millis();
    let c = match result {
        Ok(c) => c,
        Err(e) => {
            return Outcome {
                line: format!("{name:<44} {arch:<7} FAILED"),
                failure: Some(format!("{name} {arch}: {e}")),
            };
        }
    };
    if let Ok(dir) = std::env::var("DEEPGEMM_DUMP_KERNELS") {
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(format!("{dir}/{name}.{arch}.cubin"), &c.cubin);
        let _ = std::fs::write(format!("{dir}/{name}.cu"), src);
    }
    let r = parse_ptxas(&c.log, &name);
    let mut problems = Vec::new();
    if c.cubin.get(..4) != Some(&b"\x7fELF"[..]) {
        problems.push("cubin is not an ELF image".to_string());
    }
    if !c.cubin.windows(name.len()).any(|w| w == name.as_bytes()) {
        problems.push("entry symbol not in the cubin".to_string());
    }
    match r.registers {
        None => problems.push("ptxas reported no register count".to_string()),
        Some(0) => problems.push("ptxas reported 0 registers".to_string()),
        Some(_) => {}
    }
    if r.spill_stores != Some(0) || r.spill_loads != Some(0) {
        problems.push(format!(
            "spills: {:?} bytes stores, {:?} bytes loads",
            r.spill_stores, r.spill_loads
        ));
    }
    if r.smem_bytes.is_some_and(|s| s > 48 * 1024) {
        problems.push(format!("static smem {:?} > 48 KiB", r.smem_bytes));
    }
    let line = format!(
        "{name:<44} {arch:<7} regs {:>3}  smem {:>6}  stack {:>3}  {ms:>6} ms",
        r.registers.unwrap_or(0),
        r.smem_bytes.unwrap_or(0),
        r.stack_bytes.unwrap_or(0),
    );
    let failure = (!problems.is_empty()).then(|| {
        format!(
            "{name} {arch}: {}\n--- log ---\n{}",
            problems.join("; "),
            c.log
        )
    });
    Outcome { line, failure }
}

#[test]
fn every_variant_compiles_without_spills() {
    if !nvrtc_or_skip() {
        return;
    }
    let (major, minor) = nvrtc::version().expect("nvrtcVersion");
    eprintln!("NVRTC {major}.{minor}");
    let jobs = jobs();
    let next = Mutex::new(0usize);
    let outcomes: Mutex<Vec<(usize, Outcome)>> = Mutex::new(Vec::new());
    // NVRTC compiles are CPU-bound and independent: one worker per core.
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(1, 8);
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let i = {
                        let mut n = next.lock().unwrap();
                        let i = *n;
                        *n += 1;
                        i
                    };
                    let Some((v, arch)) = jobs.get(i) else { break };
                    let o = check(v, arch);
                    outcomes.lock().unwrap().push((i, o));
                }
            });
        }
    });
    let mut outcomes = outcomes.into_inner().unwrap();
    outcomes.sort_by_key(|(i, _)| *i);
    assert_eq!(outcomes.len(), jobs.len());
    for (_, o) in &outcomes {
        eprintln!("{}", o.line);
    }
    eprintln!(
        "{} compiles in {:.1} s on {workers} threads",
        jobs.len(),
        start.elapsed().as_secs_f64()
    );
    let failures: Vec<&str> = outcomes
        .iter()
        .filter_map(|(_, o)| o.failure.as_deref())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The pack kernel (copies A or B into the workspace for the Hopper kernel) for every element
/// size and every architecture deepgemm runs on, and its transposing form: no spills, and the
/// rendering options the registry uses.
#[test]
fn every_pack_variant_compiles_without_spills() {
    if !nvrtc_or_skip() {
        return;
    }
    let mut failures = Vec::new();
    for v in PackVariant::all() {
        // Packs serve the sm90 kernel only (`pack::hopper_packed_plans`); sm_80 / sm_75 keep
        // the source portable, the newer targets are not planned (sm_100 spills here).
        for arch in ["sm_90a", "sm_80", "sm_75"] {
            let o = check_source(&v.name(), &jit_pack::render(&v), arch);
            eprintln!("{}", o.line);
            failures.extend(o.failure);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The skinny kernel (decode's GEMMs: mma.sync over a cp.async ring, sm_80+) for every type
/// pair and shape, on Hopper and on sm_80: no spills, its ring in dynamic shared memory only.
#[test]
fn every_skinny_variant_compiles_without_spills() {
    if !nvrtc_or_skip() {
        return;
    }
    let mut failures = Vec::new();
    for v in SkinnyVariant::all() {
        assert_eq!(jit_skinny::options("sm_90a"), source::options("sm_90a"));
        // Bulk copies (`cp.async.bulk`) from sm_90 on: `variant` plans them on cc 9+.
        let archs: &[&str] = if v.bulk {
            &["sm_90a", "sm_100", "sm_120"]
        } else {
            &MMA_ARCHS
        };
        for &arch in archs {
            let o = check_source(&v.name(), &jit_skinny::render(&v), arch);
            eprintln!("{}", o.line);
            failures.extend(o.failure);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The tensor-core kernels must not silently build for sm_75 (no fp32-accumulating
/// m16n8k16 there): the source refuses with a clear error.
#[test]
fn tensor_core_variants_refuse_sm75() {
    if !nvrtc_or_skip() {
        return;
    }
    let v = KernelVariant::all()
        .into_iter()
        .find(|v| v.needs_mma())
        .expect("a tensor-core variant");
    let err = nvrtc::compile(&v.name(), &source::render(&v), &source::options("sm_75"))
        .expect_err("an mma variant compiled for sm_75");
    assert!(err.message().contains("need sm_80"), "{err}");
}

#[test]
fn ptxas_report_parsing() {
    let log = "ptxas info    : 0 bytes gmem\n\
        ptxas info    : Compiling entry function 'dg_other' for 'sm_90a'\n\
        ptxas info    : Function properties for dg_other\n    \
        8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n\
        ptxas info    : Used 255 registers, used 1 barriers, 8 bytes smem\n\
        ptxas info    : Compiling entry function 'dg_x' for 'sm_90a'\n\
        ptxas info    : Function properties for dg_x\n    \
        0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n\
        ptxas info    : Used 96 registers, used 1 barriers, 18432 bytes smem, 592 bytes cmem[0]\n";
    let r = parse_ptxas(log, "dg_x");
    assert_eq!(r.registers, Some(96));
    assert_eq!(r.smem_bytes, Some(18432));
    assert_eq!(
        (r.spill_stores, r.spill_loads, r.stack_bytes),
        (Some(0), Some(0), Some(0))
    );
    let o = parse_ptxas(log, "dg_other");
    assert_eq!((o.registers, o.spill_stores), (Some(255), Some(4)));
    let none = parse_ptxas("", "dg_x");
    assert_eq!(none.registers, None);
}
