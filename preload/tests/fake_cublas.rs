//! libdeepgemm_preload.so in front of a fake cuBLAS: builds ffi-tests/preload's stand-ins
//! for libcublasLt.so.13 and libcublas.so.13 (they record every GEMM's arguments) and the C
//! program preload_test.c linked against them, then runs the program with and without
//! LD_PRELOAD. The program checks each call reached the fake once with its arguments
//! untouched and the fake's status came back; these tests check the preload's own account
//! of each call (the summary and per-call log). resolve_test.c, which links no cuBLAS,
//! checks the preload's last lookup step (dlopen by name) and what happens without any
//! cuBLAS. Needs gcc (or $CC) and no GPU: the program
//! runs with CUDA_VISIBLE_DEVICES="" so that even on a GPU machine deepgemm cannot run the
//! supported calls on the fake device addresses and must forward them.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../ffi-tests/preload");

fn cc(args: &[&str], what: &str) {
    let compiler = std::env::var("CC").unwrap_or_else(|_| "gcc".into());
    let out = Command::new(&compiler)
        .args([
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Wpedantic",
            "-Werror",
            "-O1",
        ])
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"));
    assert!(
        out.status.success(),
        "{compiler} ({what}) failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Builds the fake `libcublasLt.so.{major}` and `libcublas.so.{major}` (the cuBLAS linked to
/// the cuBLASLt beside it, which it calls as the real one may) in `libdir`, the cuBLAS with
/// `defines` (`-D...`) added.
fn fakes(libdir: &Path, major: u32, defines: &[&str]) {
    let s = |f: &str| format!("{SRC}/{f}");
    let p = |f: &Path| f.to_str().unwrap().to_string();
    let (lt, blas) = (
        format!("libcublasLt.so.{major}"),
        format!("libcublas.so.{major}"),
    );
    cc(
        &[
            "-shared",
            "-fPIC",
            &format!("-Wl,-soname,{lt}"),
            &s("fake_cublasLt.c"),
            "-o",
            &p(&libdir.join(&lt)),
        ],
        &format!("fake_cublasLt.c as {lt}"),
    );
    let soname = format!("-Wl,-soname,{blas}");
    let (src, out, link) = (
        s("fake_cublas.c"),
        p(&libdir.join(&blas)),
        format!("-l:{lt}"),
    );
    let rpath = format!("-Wl,-rpath,{}", p(libdir));
    let mut args = vec!["-shared", "-fPIC"];
    args.extend_from_slice(defines);
    args.extend_from_slice(&[
        &soname,
        &src,
        "-o",
        &out,
        "-L",
        libdir.to_str().unwrap(),
        &link,
        "-Wl,--disable-new-dtags",
        &rpath,
    ]);
    cc(&args, &format!("fake_cublas.c as {blas}"));
}

/// Builds the fakes and the program once per test binary; returns the program's path.
fn program() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| {
        let lib = common::preload_lib();
        let out = lib.parent().unwrap().join("preload-ffi-tests");
        let libdir = out.join("lib");
        std::fs::create_dir_all(&libdir).unwrap();
        let s = |f: &str| format!("{SRC}/{f}");
        let p = |f: &Path| f.to_str().unwrap().to_string();
        fakes(&libdir, 13, &[]);
        let exe = out.join("preload_test");
        cc(
            &[
                &s("preload_test.c"),
                "-o",
                &p(&exe),
                "-L",
                &p(&libdir),
                "-l:libcublasLt.so.13",
                "-l:libcublas.so.13",
                // RPATH (not RUNPATH): the fakes win over any real cuBLAS on LD_LIBRARY_PATH.
                "-Wl,--disable-new-dtags",
                &format!("-Wl,-rpath,{}", p(&libdir)),
            ],
            "preload_test.c",
        );
        cc(
            &[
                &s("resolve_test.c"),
                "-o",
                &p(&out.join("resolve_test")),
                "-ldl",
            ],
            "resolve_test.c",
        );
        exe
    })
}

/// Runs the program in `mode`, with the preload library when `preload`, and `env` set.
fn run(mode: &str, preload: bool, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(program());
    for var in [
        "DEEPGEMM_PRELOAD",
        "DEEPGEMM_PRELOAD_LOG",
        "DEEPGEMM_PRELOAD_LOG_FILE",
        "NVIDIA_TF32_OVERRIDE",
        "LD_PRELOAD",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("PRELOAD_TEST_MODE", mode)
        .env("CUDA_VISIBLE_DEVICES", "");
    if preload {
        cmd.env("LD_PRELOAD", common::preload_lib());
    }
    cmd.envs(env.iter().copied());
    let out = cmd.output().expect("run preload_test");
    assert!(
        out.status.success(),
        "preload_test ({mode}) failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(&format!("all checks passed ({mode})")),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    out
}

/// The preload's lines ("deepgemm-preload: ...") of `text`.
fn preload_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with("deepgemm-preload:"))
        .collect()
}

/// What preload_test.c makes of each entry point, by forwarding reason, when substitution
/// is on and deepgemm has no GPU (supported calls: deepgemm_error, then forwarded).
const SUMMARY_PRELOAD: [&str; 8] = [
    "deepgemm-preload: cublasLtMatmul calls=16 substituted=0 forwarded=16 nested=1 data_type=1 compute_type=1 pointer_mode=1 epilogue=1 layout=1 attribute=2 empty=1 invalid=1 pointers=1 workspace=1 deepgemm_error=4",
    "deepgemm-preload: cublasGemmEx calls=8 substituted=0 forwarded=8 data_type=2 compute_type=1 invalid=1 deepgemm_error=4",
    "deepgemm-preload: cublasGemmStridedBatchedEx calls=2 substituted=0 forwarded=2 empty=1 deepgemm_error=1",
    "deepgemm-preload: cublasGemmBatchedEx calls=1 substituted=0 forwarded=1 pointer_array=1",
    "deepgemm-preload: cublasSgemm_v2 calls=3 substituted=0 forwarded=3 compute_type=1 deepgemm_error=2",
    "deepgemm-preload: cublasSgemmStridedBatched calls=1 substituted=0 forwarded=1 deepgemm_error=1",
    "deepgemm-preload: cublasHgemm calls=1 substituted=0 forwarded=1 compute_type=1",
    "deepgemm-preload: total calls=32 substituted=0 forwarded=32 supported_type_calls=24 substituted_of_supported=0.0%",
];

#[test]
fn the_fakes_alone_pass_the_program() {
    let out = run("direct", false, &[]);
    assert!(preload_lines(&String::from_utf8_lossy(&out.stderr)).is_empty());
}

#[test]
fn calls_are_forwarded_untouched_and_counted_by_reason() {
    let out = run("preload", true, &[("DEEPGEMM_PRELOAD_LOG", "summary")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines = preload_lines(&stderr);
    assert_eq!(lines.len(), 9, "{stderr}");
    assert!(
        lines[0].starts_with("deepgemm-preload: summary pid=")
            && lines[0].ends_with("substitution=on"),
        "{stderr}"
    );
    assert_eq!(&lines[1..], &SUMMARY_PRELOAD[..], "{stderr}");
}

#[test]
fn disabled_forwards_everything_without_reading() {
    // The program itself checks that nothing was read (no GetAttribute, no getter).
    let out = run(
        "disabled",
        true,
        &[
            ("DEEPGEMM_PRELOAD", "0"),
            ("DEEPGEMM_PRELOAD_LOG", "summary"),
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines = preload_lines(&stderr);
    assert!(lines[0].ends_with("substitution=off"), "{stderr}");
    for (entry, n) in [
        ("cublasLtMatmul", 15),
        ("cublasGemmEx", 8),
        ("cublasGemmStridedBatchedEx", 2),
        ("cublasGemmBatchedEx", 1),
        ("cublasSgemm_v2", 3),
        ("cublasSgemmStridedBatched", 1),
        ("cublasHgemm", 1),
    ] {
        // cuBLASLt's extra call is the one the fake cuBLAS makes inside a forwarded GemmEx:
        // not decided at all, so "nested" even with substitution off.
        let nested = if entry == "cublasLtMatmul" {
            " nested=1"
        } else {
            ""
        };
        let total = n + nested.len().min(1);
        let want = format!(
            "deepgemm-preload: {entry} calls={total} substituted=0 forwarded={total} disabled={n}{nested}"
        );
        assert!(
            lines.contains(&want.as_str()),
            "no line {want:?} in\n{stderr}"
        );
    }
    assert!(
        lines.contains(
            &"deepgemm-preload: total calls=32 substituted=0 forwarded=32 supported_type_calls=0 substituted_of_supported=0.0%"
        ),
        "{stderr}"
    );
}

#[test]
fn quiet_without_a_log_setting() {
    let out = run("preload", true, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(preload_lines(&stderr).is_empty(), "{stderr}");
}

#[test]
fn calls_log_has_one_line_per_call_then_the_summary() {
    let log = common::preload_lib()
        .parent()
        .unwrap()
        .join("preload-ffi-tests")
        .join(format!("calls-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let out = run(
        "preload",
        true,
        &[
            ("DEEPGEMM_PRELOAD_LOG", "calls"),
            ("DEEPGEMM_PRELOAD_LOG_FILE", log.to_str().unwrap()),
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        preload_lines(&stderr).is_empty(),
        "the log goes to the file: {stderr}"
    );
    let text = std::fs::read_to_string(&log).expect("the log file was written");
    let _ = std::fs::remove_file(&log);
    let lines = preload_lines(&text);
    let calls: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.contains(" -> "))
        .collect();
    assert_eq!(calls.len(), 32, "{text}");
    assert!(calls.iter().all(|l| l.contains(" -> cuBLAS (")), "{text}");
    // Calls in program order. Those that reached deepgemm show the operation the preload
    // decoded from the fake's descriptors / the arguments: TN 64x32x128 for cuBLASLt.
    let starts = |i: usize, prefix: &str| {
        assert!(
            calls[i].starts_with(&format!("deepgemm-preload: {prefix}")),
            "call {i}: {}\nexpected to start with {prefix}",
            calls[i]
        )
    };
    let ends = |i: usize, suffix: &str| {
        assert!(
            calls[i].ends_with(suffix),
            "call {i}: {}\nexpected to end with {suffix}",
            calls[i]
        )
    };
    let lt = "cublasLtMatmul m=64 n=32 k=128 batch=1 ab=bf16 cd=bf16 math=mma";
    starts(
        0,
        &format!("{lt} epilogue=None -> cuBLAS (deepgemm_error: "),
    );
    starts(
        1,
        &format!("{lt} epilogue=Gelu+bias -> cuBLAS (deepgemm_error: "),
    );
    ends(3, "-> cuBLAS (data_type: A type 28)");
    ends(4, "-> cuBLAS (epilogue: epilogue 160)");
    ends(5, "-> cuBLAS (attribute: non-zero attribute id 17)");
    // An SM count target reaches deepgemm (which has no GPU here).
    starts(
        6,
        &format!("{lt} epilogue=None -> cuBLAS (deepgemm_error: "),
    );
    starts(
        10,
        &format!("{lt} epilogue=None -> cuBLAS (pointers: D = 0x7f0000400001"),
    );
    starts(11, &format!("{lt} epilogue=None -> cuBLAS (workspace: "));
    starts(
        12,
        "cublasLtMatmul m=0 n=32 k=128 batch=1 ab=bf16 cd=bf16 math=mma epilogue=None -> cuBLAS (empty: ",
    );
    ends(13, "-> cuBLAS (invalid: a descriptor is NULL)");
    let ex = "cublasGemmEx m=64 n=32 k=128 batch=1 ab=bf16 cd=bf16 math=mma epilogue=None -> cuBLAS (deepgemm_error: ";
    starts(14, ex);
    starts(15, ex);
    starts(
        17,
        "cublasGemmEx m=64 n=32 k=128 batch=1 op=(0,1) types=(3,3,10) compute=72 -> cuBLAS (data_type: A type 3)",
    );
    starts(
        18,
        "cublasGemmEx m=-1 n=32 k=128 batch=1 op=(0,1) types=(14,14,14) compute=68 -> cuBLAS (invalid: ",
    );
    starts(19, ex);
    starts(
        21,
        "cublasGemmStridedBatchedEx m=64 n=32 k=128 batch=4 ab=f16 cd=f16 math=mma epilogue=None -> cuBLAS (deepgemm_error: ",
    );
    starts(
        23,
        "cublasSgemm_v2 m=64 n=32 k=128 batch=1 ab=f32 cd=f32 math=tf32 epilogue=None -> cuBLAS (deepgemm_error: ",
    );
    starts(
        24,
        "cublasSgemm_v2 m=64 n=32 k=128 batch=1 ab=f32 cd=f32 math=ffma epilogue=None -> cuBLAS (deepgemm_error: ",
    );
    ends(
        25,
        "-> cuBLAS (compute_type: CUBLAS_TENSOR_OP_MATH makes fp32 COMPUTE_32F_FAST_16F)",
    );
    starts(
        26,
        "cublasSgemmStridedBatched m=64 n=32 k=128 batch=3 ab=f32 cd=f32 math=ffma epilogue=None -> cuBLAS (deepgemm_error: ",
    );
    ends(27, "-> cuBLAS (compute_type: compute type 64)");
    starts(
        28,
        "cublasGemmBatchedEx m=64 n=32 k=128 batch=2 types=(14,14,14) -> cuBLAS (pointer_array: ",
    );
    // Logged before it is forwarded, then the call the fake cuBLAS makes inside it.
    ends(29, "-> cuBLAS (data_type: A type 3)");
    starts(30, "cublasLtMatmul desc=0x0 ");
    ends(30, "-> cuBLAS (nested: not decided)");
    // An attribute a newer cuBLASLt has (the fake's id 39), set: forwarded.
    ends(
        31,
        "-> cuBLAS (attribute: attribute newer than deepgemm-preload, id 39)",
    );
    assert_eq!(
        calls
            .iter()
            .filter(|l| l.contains("(deepgemm_error: "))
            .count(),
        12,
        "{text}"
    );
    let summary: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !l.contains(" -> "))
        .skip(1)
        .collect();
    assert_eq!(summary, SUMMARY_PRELOAD, "{text}");
}

/// resolve_test (links no cuBLAS) with the preload and `LD_LIBRARY_PATH=dir`.
fn resolve(case: &str, dir: &Path) -> Output {
    let exe = program().parent().unwrap().join("resolve_test");
    Command::new(exe)
        .arg(case)
        .env_remove("DEEPGEMM_PRELOAD")
        .env_remove("DEEPGEMM_PRELOAD_LOG")
        .env_remove("DEEPGEMM_PRELOAD_LOG_FILE")
        .env("LD_PRELOAD", common::preload_lib())
        .env("LD_LIBRARY_PATH", dir)
        .output()
        .expect("run resolve_test")
}

#[test]
fn real_library_loaded_by_name_when_the_program_did_not_load_it() {
    let libdir = program().parent().unwrap().join("lib");
    let out = resolve("found", &libdir);
    assert!(
        out.status.success()
            && String::from_utf8_lossy(&out.stdout).contains("all checks passed (found)"),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn no_real_library_means_not_initialized_and_a_message() {
    let empty = program().parent().unwrap().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = resolve("missing", &empty);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success()
            && String::from_utf8_lossy(&out.stdout).contains("all checks passed (missing)"),
        "{}{stderr}",
        String::from_utf8_lossy(&out.stdout)
    );
    // A machine with a cuBLAS 13 in the loader cache finds that one instead (whose
    // cublasGemmEx also says NOT_INITIALIZED for a NULL handle): no message then.
    let cached = Command::new("ldconfig")
        .arg("-p")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("libcublas.so.13"))
        .unwrap_or(false);
    if !cached {
        assert_eq!(
            preload_lines(&stderr),
            [
                "deepgemm-preload: the real cublasGemmEx was not found (dlopen RTLD_NOLOAD, \
              RTLD_NEXT, dlopen by name); returning CUBLAS_STATUS_NOT_INITIALIZED"
            ],
            "{stderr}"
        );
    }
}

/// Builds the fakes as a CUDA 11 host's (`libcublas.so.11` without `cublasGetSmCountTarget` /
/// `cublasSetSmCountTarget`, which cuBLAS 11.0-11.2 lack, and `libcublasLt.so.11`) and
/// mixed_test.c linked against them; returns the program's path.
fn mixed_program() -> PathBuf {
    let out = program().parent().unwrap().to_path_buf();
    let lib11 = out.join("lib11");
    std::fs::create_dir_all(&lib11).unwrap();
    fakes(
        &lib11,
        11,
        &[
            "-DcublasGetSmCountTarget=absent_in_cublas_11_0",
            "-DcublasSetSmCountTarget=absent_set_in_cublas_11_0",
        ],
    );
    let s = |f: &str| format!("{SRC}/{f}");
    let p = |f: &Path| f.to_str().unwrap().to_string();
    let exe = out.join("mixed_test");
    cc(
        &[
            &s("mixed_test.c"),
            "-o",
            &p(&exe),
            "-L",
            &p(&lib11),
            "-l:libcublasLt.so.11",
            "-l:libcublas.so.11",
            "-ldl",
            "-Wl,--disable-new-dtags",
            &format!("-Wl,-rpath,{}", p(&lib11)),
        ],
        "mixed_test.c",
    );
    exe
}

#[test]
fn a_cuda_11_host_keeps_its_own_cublas_beside_a_cublas_13_on_the_path() {
    let exe = mixed_program();
    // The .so.13 fakes on the loader path, where a lookup by name would find them.
    let lib13 = program().parent().unwrap().join("lib");
    for preload in [false, true] {
        let mut cmd = Command::new(&exe);
        for var in [
            "DEEPGEMM_PRELOAD",
            "DEEPGEMM_PRELOAD_LOG",
            "DEEPGEMM_PRELOAD_LOG_FILE",
        ] {
            cmd.env_remove(var);
        }
        cmd.env("LD_LIBRARY_PATH", &lib13)
            .env("CUDA_VISIBLE_DEVICES", "")
            .env_remove("LD_PRELOAD");
        if preload {
            cmd.env("LD_PRELOAD", common::preload_lib());
        }
        let out = cmd.output().expect("run mixed_test");
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(
            out.status.success() && stdout.contains("all checks passed (mixed)"),
            "preload {preload}: {stdout}{stderr}"
        );
        assert!(!stderr.contains("WARNING"), "preload {preload}: {stderr}");
    }
}
