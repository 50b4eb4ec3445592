//! Builds the C and C++ programs in ffi-tests/ against include/deepgemm.h and the
//! libdeepgemm.so that cargo built for this test run, with every warning an error, runs
//! them and checks they exit 0. Needs gcc and g++ (or $CC / $CXX), not a GPU.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The directory holding the libdeepgemm.so built for this test run. The test binary lives
/// in target/<profile>/deps, and so does the freshly built cdylib: cargo only copies it up
/// to target/<profile> on `cargo build`, so the copy there may be stale.
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let deps = exe.parent().expect("target/<profile>/deps").to_path_buf();
    let candidates = [
        deps.clone(),
        deps.parent().map(Path::to_path_buf).unwrap_or_default(),
    ];
    candidates
        .into_iter()
        .find(|d| d.join("libdeepgemm.so").exists())
        .unwrap_or_else(|| panic!("no libdeepgemm.so in or above {}", deps.display()))
}

fn build_and_run(compiler_env: &str, default: &str, std: &str, source: &str, name: &str) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let lib_dir = lib_dir();
    let out_dir = lib_dir.join("ffi-tests-bin");
    std::fs::create_dir_all(&out_dir).unwrap();
    let exe = out_dir.join(name);
    // build.rs gives the library the SONAME libdeepgemm.so.MAJOR, so the programs record
    // that name (NEEDED) and the loader looks for it: a relative link to the fresh library.
    let soname = lib_dir.join(concat!("libdeepgemm.so.", env!("CARGO_PKG_VERSION_MAJOR")));
    if std::fs::symlink_metadata(&soname).is_err() {
        match std::os::unix::fs::symlink("libdeepgemm.so", &soname) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {} // the other test
            Err(e) => panic!("cannot link {}: {e}", soname.display()),
        }
    }
    let compiler = std::env::var(compiler_env).unwrap_or_else(|_| default.to_string());
    let out = Command::new(&compiler)
        .arg(format!("-std={std}"))
        .args(["-Wall", "-Wextra", "-Wpedantic", "-Werror", "-O1"])
        .arg("-I")
        .arg(root.join("include"))
        .arg(root.join(source))
        .arg("-o")
        .arg(&exe)
        .arg("-L")
        .arg(&lib_dir)
        .arg("-ldeepgemm")
        // RPATH, not RUNPATH: LD_LIBRARY_PATH (cargo sets it, with target/<profile>, where
        // a stale copy of the library may be) must not win over the fresh one.
        .arg("-Wl,--disable-new-dtags")
        .arg(format!("-Wl,-rpath,{}", lib_dir.display()))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"));
    assert!(
        out.status.success(),
        "{compiler} {source} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );

    let mut run = Command::new(&exe);
    let ld_path = match std::env::var_os("LD_LIBRARY_PATH") {
        Some(old) => {
            let mut paths = vec![lib_dir.clone()];
            paths.extend(std::env::split_paths(&old));
            std::env::join_paths(paths).expect("LD_LIBRARY_PATH")
        }
        None => lib_dir.clone().into_os_string(),
    };
    run.env("LD_LIBRARY_PATH", ld_path);
    // SAFETY: only probes whether libcuda can be dlopen'ed.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        // No driver here: the programs must see NOT_INITIALIZED from the Create functions.
        run.env("DEEPGEMM_EXPECT_NO_GPU", "1");
    }
    let out = run.output().expect("run the program");
    assert!(
        out.status.success(),
        "{name} failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("all checks passed"));
}

#[test]
fn c_program() {
    build_and_run("CC", "gcc", "c11", "ffi-tests/c/host_api.c", "host_api_c");
}

#[test]
fn cpp_program() {
    build_and_run(
        "CXX",
        "g++",
        "c++17",
        "ffi-tests/cpp/host_api.cpp",
        "host_api_cpp",
    );
}
